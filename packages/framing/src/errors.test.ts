// What each rejection says: its code, and a message that names what is wrong, the numbers
// involved and the byte it is at, from the one-shot and the streaming decoders alike; and
// what a caller may pass (options, sources) and what it gets for anything else.
import { isSnappyError, type SnappyCodec, SnappyError } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import {
  ByteReader,
  crc32c,
  decodeFramed,
  decodeFramedStream,
  encodeFramed,
  encodeFramedStream,
  FrameDecoder,
  FrameEncoder,
  MAX_CHUNK_DATA,
  MAX_COMPRESSED_CHUNK_LENGTH,
  maskChecksum,
  STREAM_IDENTIFIER,
} from "./index.js";
import {
  chunk,
  codecs,
  concat,
  crcOf,
  decodeInSteps,
  expectBytes,
  expectRejected,
  randomBytes,
  structuredBytes,
} from "./test/helpers.js";

const codec = codecs[0]!;

/** The SnappyError `run` throws (or its promise rejects with), checked for `code`. */
async function rejection(run: () => unknown, code: string): Promise<SnappyError> {
  try {
    await run();
  } catch (error) {
    expect(isSnappyError(error, code as never), String(error)).toBe(true);
    return error as SnappyError;
  }
  throw new Error(`no ${code}`);
}
const messageOf = async (run: () => unknown, code: string) => (await rejection(run, code)).message;

/** A codec whose uncompress does what `uncompress` says, for framing's checks around it. */
const fake = (uncompress: SnappyCodec["uncompress"]): SnappyCodec => ({ ...codec, uncompress });

/** A compressed chunk of `data` with a correct CRC, through `codec`. */
const compressedChunk = (data: Uint8Array) =>
  chunk(0x00, [...crcOf(data), ...codec.compress(data)]);

describe("framed stream rejections", () => {
  const abc = Uint8Array.of(97, 98, 99);

  it("name the chunk header's fault and its byte", () => {
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x00, [1, 2, 3])),
      "CORRUPT_INPUT",
      /^compressed chunk of 3 bytes has no room for its CRC \(chunk at byte 10\)$/,
    );
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x01, [1, 2, 3])),
      "CORRUPT_INPUT",
      /^uncompressed chunk of 3 bytes has no room for its CRC \(chunk at byte 10\)$/,
    );
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0xff, [0x73, 0x4e, 0x61, 0x50, 0x70])),
      "CORRUPT_INPUT",
      /^stream identifier chunk has length 5, not 6 \(chunk at byte 10\)$/,
    );
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x7f, [])),
      "CORRUPT_INPUT",
      /^reserved unskippable chunk type 0x7f \(chunk at byte 10\)$/,
    );
    expectRejected(
      codec,
      chunk(0x00, [0, 0, 0, 0]),
      "CORRUPT_INPUT",
      /^framed stream must start with the stream identifier \(ff 06 00 00 sNaPpY\), found chunk type 0x00 \(chunk at byte 0\)$/,
    );
  });

  it("take chunks exactly at their limits, and name one byte over", () => {
    // An uncompressed chunk of 65,536 data bytes; a compressed chunk body of the most a
    // 65,536-byte block can need (padded with a skippable chunk's worth of nothing).
    const full = structuredBytes(MAX_CHUNK_DATA);
    const uncompressed = chunk(0x01, [...crcOf(full), ...full]);
    expectBytes(decodeFramed(codec, concat(STREAM_IDENTIFIER, uncompressed)), full);
    const over = chunk(0x01, [...crcOf(full), ...full, 0]);
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, over),
      "CORRUPT_INPUT",
      /^oversize uncompressed chunk: 65537 data bytes, over the limit of 65536 \(chunk at byte 10\)$/,
    );
    const header = (length: number) =>
      Uint8Array.of(0x00, length & 0xff, (length >>> 8) & 0xff, length >>> 16);
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, header(MAX_COMPRESSED_CHUNK_LENGTH + 1)),
      "CORRUPT_INPUT",
      new RegExp(
        `^oversize compressed chunk: ${MAX_COMPRESSED_CHUNK_LENGTH + 1} bytes, over the ${MAX_COMPRESSED_CHUNK_LENGTH} that a block of at most 65536 bytes can take \\(chunk at byte 10\\)$`,
      ),
    );
    // At the limit the header passes, and the stream is only cut short.
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, header(MAX_COMPRESSED_CHUNK_LENGTH)),
      "CORRUPT_INPUT",
      new RegExp(`^truncated stream: chunk of ${MAX_COMPRESSED_CHUNK_LENGTH} bytes`),
    );
  });

  it("name a chunk's body fault", () => {
    // A compressed chunk declaring 65,537 bytes, and one whose preamble is cut short.
    const declares = (n: number[]) => chunk(0x00, [0, 0, 0, 0, ...n]);
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, declares([0x81, 0x80, 0x04, 0])),
      "CORRUPT_INPUT",
      /^oversize compressed chunk: declares 65537 uncompressed bytes, over the limit of 65536 \(chunk at byte 10\)$/,
    );
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, declares([0x80])),
      "CORRUPT_INPUT",
      /^compressed chunk at byte 10: truncated length preamble: input ended after 1 varint byte\(s\)$/,
    );
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0xff, [0x73, 0x4e, 0x61, 0x50, 0x70, 0x58])),
      "CORRUPT_INPUT",
      /^stream identifier chunk does not contain sNaPpY \(chunk at byte 10\)$/,
    );
    const stored = [1, 2, 3, 4];
    const computed = maskChecksum(crc32c(abc)).toString(16).padStart(8, "0");
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x01, [...stored, ...abc])),
      "CHECKSUM_MISMATCH",
      new RegExp(
        `^uncompressed chunk checksum mismatch: stored 04030201, computed ${computed} over 3 bytes \\(chunk at byte 10\\)$`,
      ),
    );
    expect(
      decodeFramed(codec, concat(STREAM_IDENTIFIER, chunk(0x01, [...stored, ...abc])), {
        verifyChecksums: false,
      }),
    ).toEqual(abc);
  });

  it("name what the codec did wrong, keeping its error's code and the error as the cause; a codec that throws anything else is broken (BACKEND_ERROR), not the input", async () => {
    const framed = concat(STREAM_IDENTIFIER, compressedChunk(abc));
    const liar = fake(() => Uint8Array.of(97, 98));
    expect(await messageOf(() => decodeFramed(liar, framed), "CORRUPT_INPUT")).toBe(
      `compressed chunk decoded to 2 bytes, but declares 3 (chunk at byte 10)`,
    );
    const plain = new TypeError("boom");
    const throwing = fake(() => {
      throw plain;
    });
    const wrapped = await rejection(() => decodeFramed(throwing, framed), "BACKEND_ERROR");
    expect(wrapped.reason).toBe("backend-failed");
    expect(wrapped.message).toBe(`compressed chunk (${codec.name}) at byte 10: boom`);
    expect(wrapped.cause).toBe(plain);
    const text = fake(() => {
      throw "out of memory";
    });
    expect(await messageOf(() => decodeFramed(text, framed), "BACKEND_ERROR")).toBe(
      `compressed chunk (${codec.name}) at byte 10: out of memory`,
    );
    const own = new SnappyError("backend-failed", "pool gone");
    const rethrowing = fake(() => {
      throw own;
    });
    const kept = await rejection(() => decodeFramed(rethrowing, framed), "BACKEND_ERROR");
    expect(kept.message).toBe(`compressed chunk (${codec.name}) at byte 10: pool gone`);
    expect(kept.cause).toBe(own);
    // The codec is asked for no more than one chunk.
    const limits: unknown[] = [];
    decodeFramed(
      fake((input, options) => {
        limits.push(options);
        return codec.uncompress(input, options);
      }),
      framed,
    );
    expect(limits).toEqual([{ maxLength: MAX_CHUNK_DATA }]);
  });

  it("name a cut-short stream and where the last chunk started", async () => {
    const framed = encodeFramed(codec, structuredBytes(1000));
    expect(
      await messageOf(() => decodeFramed(codec, framed.subarray(0, 12)), "CORRUPT_INPUT"),
    ).toBe("truncated stream: 2 byte(s) of a 4-byte chunk header (chunk at byte 10)");
    const length = framed.length - 14;
    expect(
      await messageOf(() => decodeFramed(codec, framed.subarray(0, 20)), "CORRUPT_INPUT"),
    ).toBe(
      `truncated stream: chunk of ${length} bytes has only 6 before the end (chunk at byte 10)`,
    );
    const decoder = () => new FrameDecoder(codec);
    const ended = (bytes: Uint8Array) => () => {
      const d = decoder();
      for (const _ of d.write(bytes));
      d.end();
    };
    expect(await messageOf(ended(framed.subarray(0, 12)), "CORRUPT_INPUT")).toBe(
      "truncated stream: ends after 2 byte(s) of a 4-byte chunk header (chunk at byte 10)",
    );
    expect(await messageOf(ended(framed.subarray(0, 20)), "CORRUPT_INPUT")).toBe(
      `truncated stream: chunk of ${length} bytes ends after 6 (chunk at byte 10)`,
    );
    const padding = concat(STREAM_IDENTIFIER, chunk(0xfe, new Uint8Array(100)));
    expect(await messageOf(ended(padding.subarray(0, 50)), "CORRUPT_INPUT")).toBe(
      "truncated stream: chunk of 100 bytes ends after 36 (chunk at byte 10)",
    );
    expect(
      await messageOf(() => decodeInSteps(codec, framed.subarray(0, 20), 3), "CORRUPT_INPUT"),
    ).toBe(`truncated stream: chunk of ${length} bytes ends after 6 (chunk at byte 10)`);
  });

  it("name the limit and what was decoded when maxLength is crossed", async () => {
    const data = structuredBytes(3000);
    const framed = encodeFramed(codec, data, { chunkSize: 1000 });
    expect(
      await messageOf(() => decodeFramed(codec, framed, { maxLength: 2500 }), "LENGTH_LIMIT"),
    ).toBe(
      "framed stream decodes to more than the maxLength of 2500 bytes (2000 decoded, next chunk adds 1000)",
    );
    expectBytes(decodeFramed(codec, framed, { maxLength: 3000 }), data);
    expectBytes(decodeFramed(codec, framed, { maxLength: Number.POSITIVE_INFINITY }), data);
    const streamed = new FrameDecoder(codec, { maxLength: 2999 });
    expect(await messageOf(() => [...streamed.write(framed)], "LENGTH_LIMIT")).toBe(
      "framed stream decodes to more than the maxLength of 2999 bytes (2000 decoded, next chunk adds 1000)",
    );
    expect(streamed.produced).toBe(2000);
  });
  it("write checksums as 8 hex digits, leading zeros kept", () => {
    // [0, 8]'s masked CRC-32C is bde248: the message says 00bde248, as it says 00000001.
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x01, [1, 0, 0, 0, 0, 8])),
      "CHECKSUM_MISMATCH",
      /^uncompressed chunk checksum mismatch: stored 00000001, computed 00bde248 over 2 bytes/,
    );
  });

  it("hold an uncompressed chunk to maxLength as a compressed one, before taking its data", async () => {
    const data = structuredBytes(300);
    const framed = concat(STREAM_IDENTIFIER, chunk(0x01, [...crcOf(data), ...data]));
    const over =
      "framed stream decodes to more than the maxLength of 299 bytes (0 decoded, next chunk adds 300)";
    expect(
      await messageOf(() => decodeFramed(codec, framed, { maxLength: 299 }), "LENGTH_LIMIT"),
    ).toBe(over);
    const streamed = new FrameDecoder(codec, { maxLength: 299 });
    expect(await messageOf(() => [...streamed.write(framed)], "LENGTH_LIMIT")).toBe(over);
    expect(streamed.produced).toBe(0);
    expectBytes(decodeFramed(codec, framed, { maxLength: 300 }), data);
  });
});

describe("arguments and options", () => {
  const data = structuredBytes(1000);
  const framed = encodeFramed(codec, data);

  it("decoders: a codec, a crc32c function and a maxLength that is a size", async () => {
    for (const [options, message] of [
      [{ crc32c: 5 }, "crc32c must be a function"],
      [{ maxLength: -1 }, "maxLength must be a non-negative integer, got -1"],
      [{ maxLength: 1.5 }, "maxLength must be a non-negative integer, got 1.5"],
      [{ maxLength: Number.NaN }, "maxLength must be a non-negative integer, got NaN"],
    ] as const) {
      expect(
        await messageOf(() => decodeFramed(codec, framed, options as never), "INVALID_ARGUMENT"),
      ).toBe(message);
      expect(
        await messageOf(() => new FrameDecoder(codec, options as never), "INVALID_ARGUMENT"),
      ).toBe(message);
    }
    for (const bad of [null, {}, { uncompress: 1 }]) {
      expect(await messageOf(() => decodeFramed(bad as never, framed), "INVALID_ARGUMENT")).toBe(
        "codec must be a SnappyCodec",
      );
    }
    // A crc32c of the caller's is the one used.
    const seen: number[] = [];
    const counting = (bytes: Uint8Array) => {
      seen.push(bytes.length);
      return crc32c(bytes);
    };
    expectBytes(decodeFramed(codec, framed, { crc32c: counting }), data);
    expect(seen).toEqual([1000]);
    expect(decodeFramed(codec, new Uint8Array(0), { maxLength: 0 })).toHaveLength(0);
  });

  it("encoders: a chunkSize in 1..65536 and a crc32c function", async () => {
    for (const chunkSize of [0, 65537, 1.5, Number.NaN]) {
      const message = `chunkSize must be an integer in 1..65536, got ${chunkSize}`;
      expect(
        await messageOf(() => encodeFramed(codec, data, { chunkSize }), "INVALID_ARGUMENT"),
      ).toBe(message);
      expect(
        await messageOf(() => new FrameEncoder(codec, { chunkSize }), "INVALID_ARGUMENT"),
      ).toBe(message);
    }
    expect(
      await messageOf(() => encodeFramed(codec, data, { crc32c: 5 as never }), "INVALID_ARGUMENT"),
    ).toBe("crc32c must be a function");
    for (const chunkSize of [1, MAX_CHUNK_DATA]) {
      expectBytes(decodeFramed(codec, encodeFramed(codec, data, { chunkSize })), data);
    }
  });

  it("streaming encoders and decoders refuse writes after end, and end once", async () => {
    const encoder = new FrameEncoder(codec);
    expectBytes(concat(...encoder.end()), STREAM_IDENTIFIER);
    expect([...encoder.end()]).toEqual([]);
    expect(await messageOf(() => [...encoder.write(data)], "INVALID_ARGUMENT")).toBe(
      "write after end",
    );
    const decoder = new FrameDecoder(codec);
    decoder.end();
    decoder.end();
    expect(await messageOf(() => [...decoder.write(framed)], "INVALID_ARGUMENT")).toBe(
      "write after end",
    );
  });

  it("sources: iterables, async iterables and ReadableStreams of Uint8Arrays only", async () => {
    for (const bad of [42, {}, null]) {
      expect(await messageOf(() => new ByteReader(bad as never), "INVALID_ARGUMENT")).toBe(
        "source must be an iterable, an async iterable or a ReadableStream of Uint8Array (or Uint8ArrayList)",
      );
    }
    const reader = new ByteReader([Uint8Array.of(1), 5 as never]);
    expect(await reader.readByte()).toBe(1);
    expect(await messageOf(() => reader.readByte(), "INVALID_ARGUMENT")).toBe(
      "source item must be a Uint8Array, got number 5",
    );
    expect(
      await messageOf(async () => {
        for await (const _ of decodeFramedStream(codec, ["x" as never]));
      }, "INVALID_ARGUMENT"),
    ).toBe("source item must be a Uint8Array, got string");
    // A list's parts are checked one by one; an object that is not a list is named as such.
    const parts = new ByteReader([[Uint8Array.of(1), new Uint16Array(1)] as never]);
    expect(await parts.readByte()).toBe(1);
    expect(await messageOf(() => parts.readByte(), "INVALID_ARGUMENT")).toBe(
      "source item part 1 must be a Uint8Array, got Uint16Array",
    );
    expect(
      await messageOf(
        () => new ByteReader([{ length: 1 } as never]).readByte(),
        "INVALID_ARGUMENT",
      ),
    ).toBe(
      "source item must be a Uint8Array or an iterable of Uint8Array parts (a Uint8ArrayList), got a non-iterable object",
    );
    const throwing = {
      *[Symbol.iterator]() {
        yield Uint8Array.of(1);
        throw new RangeError("list mutated");
      },
    };
    const broken = await rejection(
      () => new ByteReader([throwing as never]).read(2),
      "INVALID_ARGUMENT",
    );
    expect([broken.reason, broken.message]).toEqual([
      "bad-argument",
      "source item (a list of parts): list mutated",
    ]);
    for (const transcode of [decodeFramedStream, encodeFramedStream]) {
      expect(
        await messageOf(async () => {
          for await (const _ of transcode(codec, 42 as never));
        }, "INVALID_ARGUMENT"),
      ).toBe(
        "source must be an iterable, an async iterable or a ReadableStream of Uint8Array (or Uint8ArrayList)",
      );
    }
  });

  it("sources: a ReadableStream read through its reader, its lock released at the end and on errors", async () => {
    const framed = encodeFramed(codec, data);
    const streamOf = (bytes: Uint8Array) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
    // Only getReader, as a runtime whose streams are not async-iterable offers.
    const stream = streamOf(framed);
    const readerOnly = { getReader: () => stream.getReader() } as never;
    const pieces: Uint8Array[] = [];
    for await (const piece of decodeFramedStream(codec, readerOnly)) pieces.push(piece);
    expectBytes(concat(...pieces), data);
    expect(stream.locked).toBe(false);
    const cut = streamOf(framed.subarray(0, 20));
    await rejection(async () => {
      for await (const _ of decodeFramedStream(codec, cut));
    }, "CORRUPT_INPUT");
    expect(cut.locked).toBe(false);
  });
});

describe("encoders", () => {
  it("store a chunk uncompressed unless compressing saves more than an eighth (exactly an eighth: stored)", () => {
    // 40 bytes whose last 30 repeat the first 30: compressed to 35 = 40 - 40/8 bytes.
    const data = randomBytes(40, 7);
    data.copyWithin(10, 0, 30);
    expect(codec.compress(data).length).toBe(40 - (40 >>> 3));
    const framed = encodeFramed(codec, data);
    expect(framed[STREAM_IDENTIFIER.length]).toBe(0x01);
    expectBytes(framed.subarray(STREAM_IDENTIFIER.length + 8), data);
  });
});

describe("ByteReader", () => {
  it("reads bytes, exact counts across slices and the end", async () => {
    const reader = new ByteReader([Uint8Array.of(1, 2), new Uint8Array(0), Uint8Array.of(3, 4, 5)]);
    expect(await reader.peekByte()).toBe(1);
    expect(await reader.read(0)).toEqual(new Uint8Array(0));
    expect(reader.position).toBe(0);
    expect(await reader.readByte()).toBe(1);
    expect(await reader.read(3)).toEqual(Uint8Array.of(2, 3, 4));
    expect(reader.position).toBe(4);
    expect(await reader.atEnd()).toBe(false);
    expect(await reader.read(1)).toEqual(Uint8Array.of(5));
    expect(await reader.atEnd()).toBe(true);
    expect(await reader.peekByte()).toBeUndefined();
    expect(await reader.readByte()).toBeUndefined();
    expect(await reader.read(1)).toBeUndefined();
    expect(reader.position).toBe(5);
    expect(await reader.read(0)).toEqual(new Uint8Array(0)); // 0 bytes, even at the end
    const short = new ByteReader([Uint8Array.of(1, 2), Uint8Array.of(3)]);
    expect(await short.read(4)).toBeUndefined();
    expect(short.position).toBe(3);
  });

  it("read(n) returns bytes the caller owns, from one slice or across slices", async () => {
    const first = Uint8Array.of(1, 2);
    const second = Uint8Array.of(3, 4, 5, 6, 7);
    const reader = new ByteReader([first, second]);
    const a = await reader.read(2); // all of the first slice
    const b = await reader.read(3); // the next slice, which holds them
    await reader.readByte();
    const c = await reader.read(1); // the last byte
    expect([a, b, c]).toEqual([Uint8Array.of(1, 2), Uint8Array.of(3, 4, 5), Uint8Array.of(7)]);
    const across = new ByteReader([first, second]);
    await across.readByte();
    const d = await across.read(3);
    expect(d).toEqual(Uint8Array.of(2, 3, 4));
    for (const out of [a, b, c, d]) {
      // toBe: toEqual would find any two ArrayBuffers equal (they have no enumerable keys).
      expect(out?.buffer).not.toBe(first.buffer);
      expect(out?.buffer).not.toBe(second.buffer);
      expect([out?.byteOffset, out?.buffer.byteLength]).toEqual([0, out?.length]);
      expect(Object.getPrototypeOf(out)).toBe(Uint8Array.prototype);
    }
    // Writing to the source afterwards does not reach what was read.
    second[0] = 99;
    expect(b).toEqual(Uint8Array.of(3, 4, 5));
    expect(await reader.read(-1).catch((e: SnappyError) => e.reason)).toBe("bad-argument");
  });
});

describe("streaming pieces", () => {
  const data = structuredBytes(5000);
  const framed = encodeFramed(codec, data, { chunkSize: 1000 });

  it("decode whatever way the stream is cut, headers split across writes included", () => {
    // Cut inside the identifier's header, inside a data chunk's header, and right after one.
    for (const cut of [2, 12, 14, 15, framed.length - 3]) {
      const decoder = new FrameDecoder(codec);
      const pieces = [
        ...decoder.write(framed.subarray(0, cut)),
        ...decoder.write(framed.subarray(cut)),
      ];
      decoder.end();
      expectBytes(concat(...pieces), data);
      expect(pieces.length, `cut at ${cut}`).toBe(5);
    }
  });

  it("yield no piece for an empty chunk, and end cleanly after a trailing empty padding chunk", () => {
    const empty = new Uint8Array(0);
    const stream = concat(
      STREAM_IDENTIFIER,
      compressedChunk(empty),
      chunk(0x01, [...crcOf(empty)]),
      compressedChunk(data.subarray(0, 10)),
      chunk(0xfe, []),
    );
    const decoder = new FrameDecoder(codec);
    const pieces = [...decoder.write(stream)];
    decoder.end();
    expect(pieces.map((p) => p.length)).toEqual([10]);
    expectBytes(decodeFramed(codec, stream), data.subarray(0, 10));
  });

  it("end throws once for a cut-short stream, then is done", async () => {
    const decoder = new FrameDecoder(codec);
    for (const _ of decoder.write(framed.subarray(0, 20)));
    await rejection(() => decoder.end(), "CORRUPT_INPUT");
    expect(() => decoder.end()).not.toThrow();
  });

  it("encode a chunk as soon as its bytes are written, and a fresh identifier each time", () => {
    const encoder = new FrameEncoder(codec, { chunkSize: 1000 });
    const first = [...encoder.write(data.subarray(0, 1000))];
    expect(first.length).toBe(2);
    expectBytes(first[0]!, STREAM_IDENTIFIER);
    first[0]!.fill(0); // the caller owns what it was given
    expect([...encoder.end()]).toEqual([]);
    const next = [...new FrameEncoder(codec).end()];
    expectBytes(next[0]!, STREAM_IDENTIFIER);
    next[0]!.fill(0);
    expectBytes([...new FrameEncoder(codec).write(data)][0]!, STREAM_IDENTIFIER);
    expectBytes(
      encodeFramed(codec, new Uint8Array(0)),
      Uint8Array.of(0xff, 6, 0, 0, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59),
    );
  });

  it("refuse what is not bytes, naming the argument", async () => {
    expect(await messageOf(() => decodeFramed(codec, "abc" as never), "INVALID_ARGUMENT")).toBe(
      "input must be a Uint8Array, got string",
    );
    expect(
      await messageOf(() => [...new FrameEncoder(codec).write(5 as never)], "INVALID_ARGUMENT"),
    ).toBe("data must be a Uint8Array, got number 5");
    expect(await messageOf(() => encodeFramed(codec, 5 as never), "INVALID_ARGUMENT")).toBe(
      "data must be a Uint8Array, got number 5",
    );
  });

  it("name a compressed chunk with a CRC and no data", () => {
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x00, [0, 0, 0, 0])),
      "CORRUPT_INPUT",
      /^compressed chunk at byte 10: empty input: a Snappy stream needs at least its length preamble$/,
    );
  });
});

// What callers pass to the ssz_snappy functions and what they get back: arguments and
// options refused at the call, Uint8Array subclasses and a polluted Object.prototype, every
// legal Snappy form inside a payload, results that own their memory, libp2p's
// Uint8ArrayList parts read in place, sources cancelled when reading stops, and what each
// rejection says.
import {
  asSubclass as as,
  expectOwned,
  inputKinds,
  legalForms,
  SUBCLASSES,
  snappyErrorOf,
} from "@snappykit/conformance/cases";
import { encodeVarint, maxCompressedLength, type SnappyErrorCode } from "@snappykit/core";
import {
  ByteReader,
  ChunkType,
  encodeFramed,
  MAX_CHUNK_DATA,
  MAX_COMPRESSED_CHUNK_LENGTH,
  STREAM_IDENTIFIER,
} from "@snappykit/framing";
import { Uint8ArrayList } from "uint8arraylist";
import { describe, expect, it } from "vitest";
import {
  decodeSszSnappy,
  decodeSszSnappyAt,
  decodeSszSnappySequence,
  encodeSszSnappy,
  encodeSszSnappySequence,
  MAX_PAYLOAD_SIZE,
  readSszSnappy,
} from "./index.js";
import {
  chunk,
  codecs,
  codeOf,
  concat,
  crcOf,
  errorOf,
  expectBytes,
  randomBytes,
  structuredBytes,
} from "./test/helpers.js";

const codec = codecs[0]!;
const any = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE };

const messageOf = async (run: () => unknown, code: SnappyErrorCode) =>
  (await errorOf(run, code)).message;

/** A compressed chunk of `data` with a correct CRC, through `codec`. */
const compressedChunk = (data: Uint8Array) =>
  chunk(0x00, [...crcOf(data), ...codec.compress(data)]);

/** Payloads of uncompressed chunks (random), compressed ones, and both. */
const payloads = [
  ["one uncompressed chunk", randomBytes(1000, 3)],
  ["three compressed chunks", structuredBytes(150_000, 6)],
  ["both kinds", concat(structuredBytes(70_000, 8), randomBytes(70_000, 7))],
] as const;

/**
 * `bytes` as libp2p may deliver them: two Uint8ArrayLists cut at every byte (that framing's
 * reader reads a list's parts in place is framing's test).
 */
function* everyCut(bytes: Uint8Array): Generator<Uint8ArrayList[]> {
  for (let cut = 0; cut <= bytes.length; cut++) {
    yield [new Uint8ArrayList(bytes.subarray(0, cut)), new Uint8ArrayList(bytes.subarray(cut))];
  }
}

/** `bytes` as a ReadableStream of 100-byte pieces; `cancelled` says if a reader cancelled it. */
function pulledStream(bytes: Uint8Array) {
  const seen = { cancelled: false };
  let pos = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pos >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(pos, pos + 100));
      pos += 100;
    },
    cancel: () => {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

// A chunk carries at most 64 KiB of output, within the compressed chunk bound (the longest
// legal streams for 64 KiB are longer than that bound, and so stay block-only here).
const framable = legalForms().filter(
  (c) => c.expected.length <= MAX_CHUNK_DATA && 4 + c.stream.length <= MAX_COMPRESSED_CHUNK_LENGTH,
);
const framed = (stream: Uint8Array, expected: Uint8Array) =>
  concat(STREAM_IDENTIFIER, chunk(ChunkType.compressed, concat(crcOf(expected), stream)));

describe("arguments", () => {
  const data = structuredBytes(1000);
  const ssz = encodeSszSnappy(codec, data);
  const bounds = { minSize: 0, maxSize: 1000 };

  it("decodeSszSnappy throws at once for a source that is no byte source", () => {
    // It once returned a promise that rejected later, unlike the Uint8Array form.
    for (const bad of [null, undefined, 42, {}]) {
      snappyErrorOf(() => decodeSszSnappy(codec, bad as never, bounds), "INVALID_ARGUMENT");
    }
    snappyErrorOf(() => decodeSszSnappy(codec, [ssz], null as never), "INVALID_ARGUMENT");
  });

  it("refuses options it does not know, and takes those it does", async () => {
    expect(await codeOf(() => encodeSszSnappy(codec, data, { maxPayload: 10 } as never))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(
      await codeOf(() => decodeSszSnappy(codec, ssz, { ...bounds, maxsize: 5 } as never)),
    ).toBe("INVALID_ARGUMENT");
    expect(
      encodeSszSnappy(codec, data, { chunkSize: 500, maxPayloadSize: 1000 }).length,
    ).toBeGreaterThan(0);
    expect(
      decodeSszSnappy(codec, ssz, { ...bounds, maxPayloadSize: 1000, verifyChecksums: false }),
    ).toHaveLength(1000);
  });

  for (const [kind, Subclass] of SUBCLASSES) {
    it(`takes ${kind} as input`, () => {
      expectBytes(decodeSszSnappy(codec, as(ssz, Subclass), bounds), data);
      expectBytes(decodeSszSnappy(codec, encodeSszSnappy(codec, as(data, Subclass)), bounds), data);
    });
  }

  it("sets no option from a polluted Object.prototype", () => {
    const proto = Object.prototype as { maxSize?: number };
    proto.maxSize = 10;
    try {
      expect(decodeSszSnappy(codec, ssz, bounds)).toHaveLength(data.length);
    } finally {
      delete proto.maxSize;
    }
  });
  it("bounds: sizes, and maxPayloadSize capping maxSize", async () => {
    const ssz = encodeSszSnappy(codec, data);
    for (const bounds of [
      { minSize: -1, maxSize: 10 },
      { minSize: 0, maxSize: 1.5 },
      { minSize: "0", maxSize: 10 },
    ]) {
      expect(
        await messageOf(() => decodeSszSnappy(codec, ssz, bounds as never), "INVALID_ARGUMENT"),
      ).toBe("bounds.minSize and bounds.maxSize must be non-negative integers");
    }
    expect(
      await messageOf(
        () => decodeSszSnappy(codec, ssz, { ...any, maxPayloadSize: -1 }),
        "INVALID_ARGUMENT",
      ),
    ).toBe("bounds.maxPayloadSize must be a non-negative integer");
    expect(
      await messageOf(() => decodeSszSnappy(codec, ssz, null as never), "INVALID_ARGUMENT"),
    ).toMatch(/^bounds must be an object with minSize, maxSize/);
    expect(
      await messageOf(
        () => decodeSszSnappy(codec, ssz, { ...any, maxPayloadSize: 999 }),
        "LENGTH_LIMIT",
      ),
    ).toBe("ssz_snappy length prefix 1000 exceeds the maximum of 999 bytes");
    expectBytes(decodeSszSnappy(codec, ssz, { minSize: 1000, maxSize: 1000 }), data);
    expect(
      await messageOf(
        () => decodeSszSnappy(codec, ssz, { minSize: 1001, maxSize: 2000 }),
        "CORRUPT_INPUT",
      ),
    ).toBe("ssz_snappy length prefix 1000 is below the type's minimum of 1001 bytes");
    // Checksums as the bounds say, with the caller's crc32c.
    const bad = ssz.slice();
    bad[2 + 14] = bad[2 + 14]! ^ 1;
    expect(await messageOf(() => decodeSszSnappy(codec, bad, any), "CHECKSUM_MISMATCH")).toMatch(
      /^compressed chunk checksum mismatch/,
    );
    expectBytes(decodeSszSnappy(codec, bad, { ...any, verifyChecksums: false }), data);
    expect(
      await messageOf(
        () => decodeSszSnappy(codec, ssz, { ...any, crc32c: () => 0 }),
        "CHECKSUM_MISMATCH",
      ),
    ).toMatch(/computed a282ead8/);
    // Encoding: the payload limit, inclusive.
    expect(encodeSszSnappy(codec, data, { maxPayloadSize: 1000 })).toEqual(ssz);
    expect(
      await messageOf(() => encodeSszSnappy(codec, data, { maxPayloadSize: 999 }), "LENGTH_LIMIT"),
    ).toBe("ssz payload of 1000 bytes exceeds MAX_PAYLOAD_SIZE (999)");
  });

  it("the caller's crc32c, and a payload that is not bytes named", async () => {
    const data = structuredBytes(1000);
    const zero = encodeSszSnappy(codec, data, { crc32c: () => 0 });
    // The masked CRC of a chunk whose CRC-32C is 0: 0xa282ead8, after the 2-byte prefix and
    // the identifier and header.
    expect([...zero.subarray(2 + 10 + 4, 2 + 10 + 8)]).toEqual([0xd8, 0xea, 0x82, 0xa2]);
    expect(await messageOf(() => encodeSszSnappy(codec, null as never), "INVALID_ARGUMENT")).toBe(
      "ssz must be a Uint8Array, got null",
    );
  });
});

describe("ssz_snappy rejections", () => {
  const data = structuredBytes(1000);
  const ssz = encodeSszSnappy(codec, data);
  const streamOf = (bytes: Uint8Array) => [bytes.subarray(0, 5), bytes.subarray(5)];

  it("name the prefix's fault", async () => {
    for (const source of [new Uint8Array(0), [] as Uint8Array[]]) {
      expect(
        await messageOf(() => decodeSszSnappy(codec, source as never, any), "CORRUPT_INPUT"),
      ).toBe("empty input: missing the ssz_snappy length prefix");
    }
    for (const source of [Uint8Array.of(0x80, 0x80), [Uint8Array.of(0x80, 0x80)]]) {
      expect(
        await messageOf(() => decodeSszSnappy(codec, source as never, any), "CORRUPT_INPUT"),
      ).toBe("truncated ssz_snappy length prefix after 2 byte(s)");
    }
    const ten = Uint8Array.of(...new Array(9).fill(0x80), 0x01);
    expect(
      await messageOf(
        () => decodeSszSnappy(codec, ten, { minSize: 0, maxSize: Number.MAX_SAFE_INTEGER }),
        "LENGTH_LIMIT",
      ),
    ).toBe("ssz_snappy length prefix 9223372036854776000 exceeds the maximum of 10485760 bytes");
  });

  it("name a prefix that is not minimal, unknown bounds, and input that is not bytes", async () => {
    const padded = concat(Uint8Array.of(0x85, 0x00), encodeFramed(codec, structuredBytes(5)));
    for (const source of [padded, streamOf(padded)]) {
      expect(
        await messageOf(() => decodeSszSnappy(codec, source as never, any), "CORRUPT_INPUT"),
      ).toBe("ssz_snappy length prefix is not minimally encoded (trailing 0x00 varint byte)");
    }
    expect(
      await messageOf(
        () => decodeSszSnappy(codec, ssz, { ...any, maxsize: 10 } as never),
        "INVALID_ARGUMENT",
      ),
    ).toMatch(/^bounds has an unknown key "maxsize" \(did you mean "maxSize"\?\)/);
    expect(
      await messageOf(() => decodeSszSnappyAt(codec, null as never, 0, any), "INVALID_ARGUMENT"),
    ).toBe("input must be a Uint8Array, got null");
  });

  it("hold an uncompressed chunk to the length prefix, before taking its data", async () => {
    const data = structuredBytes(3);
    // Prefix 2, identifier (bytes 1-10), then a 3-byte uncompressed chunk at byte 11.
    const bytes = concat(
      Uint8Array.of(2),
      STREAM_IDENTIFIER,
      chunk(0x01, [...crcOf(data), ...data]),
    );
    for (const source of [bytes, streamOf(bytes)]) {
      expect(
        await messageOf(() => decodeSszSnappy(codec, source as never, any), "CORRUPT_INPUT"),
      ).toBe(
        "ssz_snappy payload decodes past its length prefix of 2 bytes (0 decoded, chunk at byte 11 adds 3)",
      );
    }
  });

  it("read a chunk header that ends the input as a header, from bytes and from a stream", async () => {
    // A data chunk too short for its CRC, its 4-byte header the last bytes there are: the
    // fault is the chunk, not a cut-short input.
    const bytes = concat(Uint8Array.of(5), STREAM_IDENTIFIER, chunk(0x01, []));
    for (const source of [bytes, streamOf(bytes)]) {
      expect(
        await messageOf(() => decodeSszSnappy(codec, source as never, any), "CORRUPT_INPUT"),
      ).toBe("uncompressed chunk of 0 bytes has no room for its CRC (chunk at byte 11)");
    }
  });

  it("take an empty payload without a stream identifier from a stream, the next one after it", async () => {
    const reader = new ByteReader(streamOf(concat(Uint8Array.of(0), ssz)));
    expect(await readSszSnappy(codec, reader, any)).toHaveLength(0);
    expect(reader.position).toBe(1);
    expectBytes(await readSszSnappy(codec, reader, any), data);
    expect(await decodeSszSnappy(codec, [Uint8Array.of(0)], any)).toHaveLength(0);
  });

  it("name a payload that decodes past its prefix, runs short, or has more after it", async () => {
    const framed = encodeFramed(codec, data, { chunkSize: 400 });
    const prefixed = (n: number) => concat(Uint8Array.of((n & 0x7f) | 0x80, n >>> 7), framed);
    for (const source of [prefixed(900), streamOf(prefixed(900))]) {
      expect(
        await messageOf(() => decodeSszSnappy(codec, source as never, any), "CORRUPT_INPUT"),
      ).toMatch(
        /^ssz_snappy payload decodes past its length prefix of 900 bytes \(800 decoded, chunk at byte \d+ adds 200\)$/,
      );
    }
    for (const source of [prefixed(1100), streamOf(prefixed(1100))]) {
      expect(
        await messageOf(() => decodeSszSnappy(codec, source as never, any), "CORRUPT_INPUT"),
      ).toBe("truncated ssz_snappy payload: input ended after 1000 of 1100 bytes");
    }
    expect(
      await messageOf(
        () => decodeSszSnappy(codec, concat(ssz, Uint8Array.of(0)), any),
        "CORRUPT_INPUT",
      ),
    ).toBe("1 trailing byte(s) after the ssz_snappy payload");
    expect(
      await messageOf(
        () => decodeSszSnappy(codec, streamOf(concat(ssz, Uint8Array.of(0))), any),
        "CORRUPT_INPUT",
      ),
    ).toBe("some trailing byte(s) after the ssz_snappy payload");
    // Several chunks, assembled at their places: a one-chunk payload is the codec's output.
    expectBytes(decodeSszSnappy(codec, prefixed(1000), any), data);
    expectBytes(await decodeSszSnappy(codec, streamOf(prefixed(1000)), any), data);
  });

  it("name the framed bytes a payload may take, counting from the prefix's end", async () => {
    // 10 bytes: at most max_compressed_len(10) = 43 framed bytes; the identifier (10) and a
    // padding chunk of 29 (33) take them all, leaving none for the data chunk at byte 44.
    const payload = structuredBytes(10);
    const bytes = concat(
      Uint8Array.of(10),
      STREAM_IDENTIFIER,
      chunk(0xfe, new Uint8Array(29)),
      compressedChunk(payload),
    );
    expect(await messageOf(() => decodeSszSnappy(codec, bytes, any), "CORRUPT_INPUT")).toBe(
      "ssz_snappy payload of 10 bytes needs more than max_compressed_len(10) = 43 framed bytes (the chunk header at byte 44 would take them to 47; 0 bytes decoded)",
    );
    const reader = new ByteReader(streamOf(bytes));
    expect(await messageOf(() => readSszSnappy(codec, reader, any), "CORRUPT_INPUT")).toBe(
      "ssz_snappy payload of 10 bytes needs more than max_compressed_len(10) = 43 framed bytes (the chunk header at byte 44 would take them to 47; 0 bytes decoded)",
    );
    // The header is refused before it is read: the reader stops at the budget.
    expect(reader.position).toBe(44);
    // With room for the header but not its body, the chunk is named.
    const roomy = concat(
      Uint8Array.of(10),
      STREAM_IDENTIFIER,
      chunk(0xfe, new Uint8Array(25)),
      compressedChunk(payload),
    );
    expect(await messageOf(() => decodeSszSnappy(codec, roomy, any), "CORRUPT_INPUT")).toBe(
      `ssz_snappy payload of 10 bytes needs more than max_compressed_len(10) = 43 framed bytes (the chunk at byte 40 would take them to ${39 + compressedChunk(payload).length}; 0 bytes decoded)`,
    );
  });
});

describe.each(codecs)("every legal form inside a payload, with $name", (codec) => {
  it("decodes within max_compressed_len(n)", async () => {
    // The spec's budget: a reader reads at most max_compressed_len(n) framed bytes, so the
    // longest legal streams are no ssz_snappy payloads; an empty payload is a policy of its own.
    const bounds = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE };
    for (const { name, stream, expected } of framable) {
      const body = framed(stream, expected);
      if (expected.length === 0 || body.length > maxCompressedLength(expected.length)) continue;
      const payload = concat(encodeVarint(expected.length), body);
      expectBytes(decodeSszSnappy(codec, payload, bounds), expected, name);
    }
  });
});

describe.each(codecs.map((c) => [c.name, c] as const))(
  "results own their memory (%s)",
  (_, codec) => {
    for (const [name, data] of payloads) {
      const ssz = encodeSszSnappy(codec, data);
      const bounds = { minSize: 0, maxSize: data.length };

      it(`decoders, ${name}`, async () => {
        for (const [kind, input] of inputKinds(ssz)) {
          const what = (api: string) => `${api}(${kind})`;
          const copies = () => inputKinds(ssz).find(([k]) => k === kind)![1];
          expectOwned(decodeSszSnappy(codec, input, bounds), data, input, what("decodeSszSnappy"));
          let other = copies();
          expectOwned(
            decodeSszSnappyAt(codec, other, 0, bounds).ssz,
            data,
            other,
            what("decodeSszSnappyAt"),
          );
          other = copies();
          const [only] = decodeSszSnappySequence(codec, other, bounds);
          expectOwned(only!, data, other, what("decodeSszSnappySequence"));
          other = copies();
          expectOwned(
            await readSszSnappy(codec, new ByteReader([other]), bounds),
            data,
            other,
            what("readSszSnappy"),
          );
          other = copies();
          expectOwned(
            await decodeSszSnappy(codec, [other], bounds),
            data,
            other,
            what("decodeSszSnappy(stream)"),
          );
        }
      });

      it(`encoders, ${name}`, () => {
        for (const [kind] of inputKinds(data)) {
          const what = (api: string) => `${api}(${kind})`;
          const again = inputKinds(data).find(([k]) => k === kind)![1];
          expectOwned(encodeSszSnappy(codec, again), ssz, again, what("encodeSszSnappy"));
          const seq = inputKinds(data).find(([k]) => k === kind)![1];
          expectOwned(
            encodeSszSnappySequence(codec, [seq]),
            ssz,
            seq,
            what("encodeSszSnappySequence"),
          );
        }
      });
    }
  },
);

describe.each(codecs.map((c) => [c.name, c] as const))("sources, %s", (_n, codec) => {
  const data = structuredBytes(300_000);

  it("ByteReader, readSszSnappy and decodeSszSnappy read lists cut at every byte", async () => {
    const items = [structuredBytes(700), new Uint8Array(0), structuredBytes(50, 9)];
    const response = encodeSszSnappySequence(codec, items, { chunkSize: 300 });
    for (const lists of everyCut(response)) {
      const reader = new ByteReader(lists);
      for (const item of items) expectBytes(await readSszSnappy(codec, reader, any), item);
      expect(await reader.atEnd()).toBe(true);
      expect(reader.position).toBe(response.length);
    }
    const one = encodeSszSnappySequence(codec, [items[0]!]);
    for (const lists of everyCut(one)) {
      expectBytes(await decodeSszSnappy(codec, lists, any), items[0]!);
    }
    // A single list is a source of its parts.
    expectBytes(await decodeSszSnappy(codec, new Uint8ArrayList(one), any), items[0]!);
  });

  it("decodeSszSnappy cancels the stream it stops reading; ByteReader.cancel() does on demand", async () => {
    const payload = encodeSszSnappySequence(codec, [data.subarray(0, 1000), data]);
    // Trailing bytes (the second payload): the source is cancelled, not left open.
    const trailing = pulledStream(payload);
    await expect(decodeSszSnappy(codec, trailing.stream, any)).rejects.toMatchObject({
      reason: "trailing-bytes",
    });
    expect(trailing.seen.cancelled).toBe(true);
    expect(trailing.stream.locked).toBe(false);
    const manual = pulledStream(payload);
    const reader = new ByteReader(manual.stream);
    expectBytes(await readSszSnappy(codec, reader, any), data.subarray(0, 1000));
    await reader.cancel();
    expect(manual.seen.cancelled).toBe(true);
    expect(manual.stream.locked).toBe(false);
    expect(await reader.atEnd()).toBe(true);
  });
});

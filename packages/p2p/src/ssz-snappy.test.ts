import { maxCompressedLength } from "@snappykit/core";
import {
  ByteReader,
  decodeFramed,
  decodeFramedStream,
  encodeFramed,
  FrameDecoder,
  MAX_CHUNK_DATA,
  MAX_COMPRESSED_CHUNK_LENGTH,
  STREAM_IDENTIFIER,
} from "@snappykit/framing";
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
  expectBytes,
  randomBytes,
  structuredBytes,
} from "./test/helpers.js";

const any = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE };

/** Split `bytes` into pieces of `step` bytes, as a network stream would deliver them. */
function* pieces(bytes: Uint8Array, step: number): Generator<Uint8Array> {
  for (let pos = 0; pos < bytes.length; pos += step) yield bytes.subarray(pos, pos + step);
}

const varint = (n: number) => {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Uint8Array.from(out);
};

describe.each(codecs.map((c) => [c.name, c] as const))("ssz_snappy over %s", (_n, codec) => {
  const block = structuredBytes(140_000); // a large block: three framed chunks

  it("is the varint length followed by the framed stream", () => {
    const encoded = encodeSszSnappy(codec, block);
    expectBytes(encoded, concat(varint(block.length), encodeFramed(codec, block)));
    expectBytes(decodeSszSnappy(codec, encoded, any), block);
  });

  it("round-trips from a buffer and from streams cut anywhere", async () => {
    for (const ssz of [block, structuredBytes(200), randomBytes(300), new Uint8Array(0)]) {
      const encoded = encodeSszSnappy(codec, ssz);
      expectBytes(decodeSszSnappy(codec, encoded, any), ssz);
      for (const step of [1, 3, 4096]) {
        if (step === 1 && ssz.length > 1000) continue; // byte-at-a-time covered on small payloads
        expectBytes(await decodeSszSnappy(codec, pieces(encoded, step), any), ssz);
      }
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const p of pieces(encoded, 1000)) controller.enqueue(p);
          controller.close();
        },
      });
      expectBytes(await decodeSszSnappy(codec, stream, any), ssz);
    }
  });

  it("walks a by-range response (a sequence of payloads) from a buffer and a stream", async () => {
    const items = [block, structuredBytes(90_000, 2), structuredBytes(500, 3), randomBytes(70_000)];
    const response = encodeSszSnappySequence(codec, items);
    const decoded = decodeSszSnappySequence(codec, response, any);
    expect(decoded.length).toBe(items.length);
    items.forEach((item, i) => {
      expectBytes(decoded[i]!, item);
    });
    const reader = new ByteReader(pieces(response, 1500));
    for (const item of items) expectBytes(await readSszSnappy(codec, reader, any), item);
    expect(await reader.atEnd()).toBe(true);
    // Each payload stops exactly at its end: the next one starts right there.
    const first = decodeSszSnappyAt(codec, response, 0, any);
    expect(first.end).toBe(encodeSszSnappy(codec, items[0]!).length);
  });

  it("accepts an empty payload with or without the stream identifier", () => {
    expect(decodeSszSnappy(codec, Uint8Array.of(0), any).length).toBe(0);
    expect(decodeSszSnappy(codec, concat(Uint8Array.of(0), STREAM_IDENTIFIER), any).length).toBe(0);
  });

  describe("hostile input", () => {
    const encoded = encodeSszSnappy(codec, block);
    const both = async (bytes: Uint8Array, bounds = any) => {
      const sync = await codeOf(() => decodeSszSnappy(codec, bytes, bounds));
      const streamed = await codeOf(() => decodeSszSnappy(codec, pieces(bytes, 777), bounds));
      expect(streamed).toBe(sync);
      return sync;
    };

    it("trailing bytes", async () => {
      expect(await both(concat(encoded, Uint8Array.of(0)))).toBe("CORRUPT_INPUT");
      expect(() => decodeSszSnappy(codec, concat(encoded, Uint8Array.of(1, 2)), any)).toThrow(
        /2 trailing byte/,
      );
      // Trailing padding chunk after the payload is still a trailing byte.
      expect(await both(concat(encoded, chunk(0xfe, [0])))).toBe("CORRUPT_INPUT");
    });

    it("early EOF, in the prefix and in the payload", async () => {
      expect(await both(new Uint8Array(0))).toBe("CORRUPT_INPUT");
      expect(await both(Uint8Array.of(0x80))).toBe("CORRUPT_INPUT");
      for (const cut of [3, 12, 20, 1000, encoded.length - 1]) {
        expect(await both(encoded.subarray(0, cut)), `cut at ${cut}`).toBe("CORRUPT_INPUT");
      }
      expect(() => decodeSszSnappy(codec, encoded.subarray(0, 1000), any)).toThrow(
        /truncated ssz_snappy payload/,
      );
    });

    it("oversize length prefix: over the type's maxSize or MAX_PAYLOAD_SIZE", async () => {
      const bounds = { minSize: 0, maxSize: block.length - 1 };
      expect(await both(encoded, bounds)).toBe("LENGTH_LIMIT");
      const huge = concat(varint(MAX_PAYLOAD_SIZE + 1), STREAM_IDENTIFIER);
      expect(await both(huge, { minSize: 0, maxSize: 2 ** 40 })).toBe("LENGTH_LIMIT");
      expect(() => decodeSszSnappy(codec, huge, { minSize: 0, maxSize: 2 ** 40 })).toThrow(
        /exceeds the maximum of 10485760/,
      );
      expect(await both(encoded, { minSize: block.length + 1, maxSize: 2 ** 30 })).toBe(
        "CORRUPT_INPUT",
      );
      expect(await codeOf(() => encodeSszSnappy(codec, new Uint8Array(MAX_PAYLOAD_SIZE + 1)))).toBe(
        "LENGTH_LIMIT",
      );
    });

    it("length prefix longer than 10 bytes, or not minimal", async () => {
      const eleven = concat(new Uint8Array(10).fill(0x80), Uint8Array.of(0));
      expect(await both(eleven)).toBe("CORRUPT_INPUT");
      expect(() => decodeSszSnappy(codec, eleven, any)).toThrow(/longer than 10 bytes/);
      const padded = concat(Uint8Array.of(0x85, 0x00), encodeFramed(codec, randomBytes(5)));
      expect(() => decodeSszSnappy(codec, padded, any)).toThrow(/not minimally encoded/);
    });

    it("decoded length differs from the prefix", async () => {
      const framed = encodeFramed(codec, block);
      // Prefix larger than the data: EOF before n bytes.
      expect(await both(concat(varint(block.length + 10), framed))).toBe("CORRUPT_INPUT");
      // Prefix smaller than the data: the chunk that crosses it is rejected before decoding.
      const short = concat(varint(block.length - 10), framed);
      expect(await both(short)).toBe("CORRUPT_INPUT");
      expect(() => decodeSszSnappy(codec, short, any)).toThrow(/past its length prefix/);
    });

    it("never reads more than max_compressed_len(n) framed bytes", async () => {
      const ssz = randomBytes(100);
      const limit = maxCompressedLength(100);
      const body = encodeFramed(codec, ssz).subarray(10);
      // Padding that pushes the payload past max_compressed_len(100) = 148 framed bytes.
      const padding = chunk(0xfe, new Uint8Array(limit - 10 - 4 - body.length + 1));
      const bytes = concat(varint(100), STREAM_IDENTIFIER, padding, body);
      expect(await both(bytes)).toBe("CORRUPT_INPUT");
      expect(() => decodeSszSnappy(codec, bytes, any)).toThrow(/max_compressed_len\(100\) = 148/);
      // One byte less padding fits exactly.
      const fits = concat(
        varint(100),
        STREAM_IDENTIFIER,
        chunk(0xfe, new Uint8Array(limit - 10 - 4 - body.length)),
        body,
      );
      expectBytes(decodeSszSnappy(codec, fits, any), ssz);
      // A stream source is not read past the limit even when it is endless.
      const reader = new ByteReader(
        (function* () {
          yield concat(varint(100), STREAM_IDENTIFIER);
          for (;;) yield chunk(0xfe, new Uint8Array(16));
        })(),
      );
      expect(await codeOf(() => readSszSnappy(codec, reader, any))).toBe("CORRUPT_INPUT");
      expect(reader.position).toBeLessThanOrEqual(1 + limit);
    });

    it("checksum and chunk errors propagate with their codes", async () => {
      const bad = encoded.slice();
      bad[3 + 14] = bad[3 + 14]! ^ 1; // 3-byte prefix, then the first data chunk's CRC
      expect(await both(bad)).toBe("CHECKSUM_MISMATCH");
      expect(await both(concat(varint(10), STREAM_IDENTIFIER, chunk(0x02, [0, 0, 0, 0])))).toBe(
        "CORRUPT_INPUT",
      );
      expect(
        await both(concat(varint(10), encodeFramed(codec, randomBytes(10)).subarray(10))),
      ).toBe("CORRUPT_INPUT");
    });
  });
});

/** A source of `bytes` one byte at a time that counts the bytes pulled from it. */
function countingSource(bytes: Uint8Array) {
  const counter = { pulled: 0 };
  const source = (function* () {
    for (let i = 0; i < bytes.length; i++) {
      counter.pulled++;
      yield bytes.subarray(i, i + 1);
    }
  })();
  return { source, counter };
}

/**
 * A valid compressed chunk far longer than any encoder writes: 65,536 one-byte literals, each
 * `lengthForm` extra length bytes long (0: the short form, 4: the longest), after a preamble.
 */
function literalsChunk(data: Uint8Array, lengthForm: 0 | 4, preamble: number[]): Uint8Array {
  const step = 2 + lengthForm;
  const block = new Uint8Array(preamble.length + step * data.length);
  block.set(preamble);
  for (let i = 0; i < data.length; i++) {
    const at = preamble.length + i * step;
    block[at] = lengthForm === 0 ? 0x00 : 0xfc; // literal of length 1 (tag 0, or 60+4 bytes)
    block[at + step - 1] = data[i]!;
  }
  return chunk(0x00, concat(crcOf(data), block));
}

describe.each(codecs.map((c) => [c.name, c] as const))(
  "the read budget and long chunks, %s",
  (_n, codec) => {
    it("readSszSnappy never pulls a byte past max_compressed_len(n), checking before each header", async () => {
      // n = 4: a budget of 36 framed bytes. The identifier and a padding chunk take all 36;
      // the data chunk after them must be refused before its header is pulled.
      const ssz = Uint8Array.of(1, 2, 3, 4);
      const budget = maxCompressedLength(4);
      const data = encodeFramed(codec, ssz).subarray(10);
      for (let padding = 0; padding <= budget - 10 - 4 + 3; padding++) {
        const bytes = concat(
          varint(4),
          STREAM_IDENTIFIER,
          chunk(0xfe, new Uint8Array(padding)),
          data,
        );
        const { source, counter } = countingSource(bytes);
        const reader = new ByteReader(source);
        const fits = 10 + 4 + padding + data.length <= budget;
        if (fits) {
          expectBytes(await readSszSnappy(codec, reader, any), ssz);
        } else {
          await expect(readSszSnappy(codec, reader, any)).rejects.toMatchObject({
            reason: "read-budget-exceeded",
            limit: budget,
          });
        }
        expect(counter.pulled, `padding ${padding}`).toBeLessThanOrEqual(1 + budget);
        expect(reader.position).toBeLessThanOrEqual(1 + budget);
      }
    });

    it("a 131,079-byte chunk of one-byte literals decodes wherever its payload's budget fits it", async () => {
      const first = structuredBytes(MAX_CHUNK_DATA, 5);
      const long = literalsChunk(first, 0, [0x80, 0x80, 0x04]);
      expect(long.length).toBe(4 + 131_079);
      const rest = new Uint8Array(MAX_CHUNK_DATA); // compresses to little
      const framed = concat(STREAM_IDENTIFIER, long, encodeFramed(codec, rest).subarray(10));
      const whole = concat(first, rest);
      expectBytes(decodeFramed(codec, framed), whole);
      for (const step of [1000, 65_536, 200_000]) {
        expectBytes(await collectStream(decodeFramedStream(codec, pieces(framed, step))), whole);
      }
      // As an ssz_snappy payload of 131,072 bytes: budget 152,949, the stream takes ~134 KB.
      const wire = concat(varint(whole.length), framed);
      expect(framed.length).toBeLessThan(maxCompressedLength(whole.length));
      expectBytes(decodeSszSnappy(codec, wire, any), whole);
      expectBytes(await decodeSszSnappy(codec, pieces(wire, 4096), any), whole);
      // As a payload of 65,536 bytes alone, it does not fit max_compressed_len(65536) = 76,490:
      // refused from its header, before its body is read.
      const alone = concat(varint(MAX_CHUNK_DATA), STREAM_IDENTIFIER, long);
      const { source, counter } = countingSource(alone);
      await expect(readSszSnappy(codec, new ByteReader(source), any)).rejects.toMatchObject({
        reason: "read-budget-exceeded",
      });
      expect(counter.pulled).toBe(3 + 10 + 4);
    });

    it("refuses from its header only a compressed chunk no block of 65,536 bytes can fill", () => {
      const header = (length: number) =>
        Uint8Array.of(0x00, length & 0xff, (length >>> 8) & 0xff, length >>> 16);
      expect(MAX_COMPRESSED_CHUNK_LENGTH).toBe(4 + 5 + 6 * MAX_CHUNK_DATA);
      for (const length of [MAX_COMPRESSED_CHUNK_LENGTH + 1, 0xffffff]) {
        expect(() =>
          new FrameDecoder(codec).write(concat(STREAM_IDENTIFIER, header(length))).next(),
        ).toThrow(
          expect.objectContaining({ reason: "oversize-chunk", limit: MAX_COMPRESSED_CHUNK_LENGTH }),
        );
      }
    });
  },
);

// The longest valid chunk: 65,536 literals in the 4-byte length form after a padded 5-byte
// preamble. snappy-wasm refuses a literal length written in a longer form than it needs, so
// this runs over napi alone.
it("takes the longest valid compressed chunk, exactly MAX_COMPRESSED_CHUNK_LENGTH long", async () => {
  const codec = codecs.find((c) => c.name === "napi")!;
  const data = structuredBytes(MAX_CHUNK_DATA, 11);
  const longest = literalsChunk(data, 4, [0x80, 0x80, 0x84, 0x80, 0x00]);
  expect(longest.length).toBe(4 + MAX_COMPRESSED_CHUNK_LENGTH);
  const framed = concat(STREAM_IDENTIFIER, longest);
  expectBytes(decodeFramed(codec, framed), data);
  expectBytes(await collectStream(decodeFramedStream(codec, pieces(framed, 7777))), data);
});

describe("bounds", () => {
  const codec = codecs[0]!;
  const ssz = structuredBytes(300);
  const wire = encodeSszSnappy(codec, ssz);

  /** Shaped like an @chainsafe/ssz type: a class instance, sizes as own fields, methods. */
  class FakeSszType {
    readonly typeName = "FakeContainer";
    readonly fixedSize = null;
    readonly minSize: number;
    readonly maxSize: number;
    readonly fields = { a: 1 };
    constructor(minSize: number, maxSize: number) {
      this.minSize = minSize;
      this.maxSize = maxSize;
    }
    get defaultValue() {
      return {};
    }
    serialize(): Uint8Array {
      return new Uint8Array(0);
    }
    deserialize(): object {
      return {};
    }
  }

  it("take an SSZ type itself as bounds, reading only its own minSize/maxSize", async () => {
    expectBytes(decodeSszSnappy(codec, wire, new FakeSszType(100, 1000)), ssz);
    expectBytes(await decodeSszSnappy(codec, pieces(wire, 50), new FakeSszType(0, 300)), ssz);
    expectBytes(await readSszSnappy(codec, new ByteReader([wire]), new FakeSszType(300, 300)), ssz);
    expect(await codeOf(() => decodeSszSnappy(codec, wire, new FakeSszType(301, 1000)))).toBe(
      "CORRUPT_INPUT",
    );
    expect(await codeOf(() => decodeSszSnappy(codec, wire, new FakeSszType(0, 299)))).toBe(
      "LENGTH_LIMIT",
    );
    // A type whose maxSize is past 2^53 (a list of large lists) is capped by MAX_PAYLOAD_SIZE.
    expectBytes(decodeSszSnappy(codec, wire, new FakeSszType(0, 2 ** 60)), ssz);
    // Sizes inherited rather than own are not read: a polluted prototype lifts no bound.
    class Inherited {}
    Object.assign(Inherited.prototype, { minSize: 0, maxSize: 1000 });
    expect(await codeOf(() => decodeSszSnappy(codec, wire, new Inherited() as never))).toBe(
      "INVALID_ARGUMENT",
    );
    const polluted = Object.prototype as { maxPayloadSize?: number };
    polluted.maxPayloadSize = 2 ** 40;
    try {
      const big = concat(varint(MAX_PAYLOAD_SIZE + 1), STREAM_IDENTIFIER);
      expect(await codeOf(() => decodeSszSnappy(codec, big, new FakeSszType(0, 2 ** 40)))).toBe(
        "LENGTH_LIMIT",
      );
      expect(
        await codeOf(() => decodeSszSnappy(codec, big, { minSize: 0, maxSize: 2 ** 40 })),
      ).toBe("LENGTH_LIMIT");
    } finally {
      delete polluted.maxPayloadSize;
    }
  });

  it("options planted on Object.prototype are not read, by any entry", async () => {
    const polluted = Object.prototype as Record<string, unknown>;
    const bad = wire.slice();
    bad[2 + 14] = bad[2 + 14]! ^ 1; // the first data chunk's CRC
    const framed = encodeFramed(codec, ssz);
    Object.assign(polluted, { verifyChecksums: false, chunkSize: 1, maxLength: 2 ** 40 });
    try {
      expect(await codeOf(() => decodeSszSnappy(codec, bad, any))).toBe("CHECKSUM_MISMATCH");
      expect(await codeOf(() => decodeFramed(codec, bad.subarray(2), {}))).toBe(
        "CHECKSUM_MISMATCH",
      );
      expectBytes(encodeFramed(codec, ssz, {}), framed);
      expect(await codeOf(() => decodeFramed(codec, framed, { verifyChecksums: true }))).toBe(
        "no error",
      );
    } finally {
      for (const key of ["verifyChecksums", "chunkSize", "maxLength"]) delete polluted[key];
    }
  });

  it("a plain object still names a key it does not know", () => {
    expect(() => decodeSszSnappy(codec, wire, { ...any, verifyChecksum: false } as never)).toThrow(
      /^bounds has an unknown key "verifyChecksum"/,
    );
  });

  it("allowNonMinimalPrefix takes a prefix with redundant bytes", async () => {
    const data = structuredBytes(84);
    const framed = encodeFramed(codec, data);
    for (const prefix of [
      [0xd4, 0x00],
      [0xd4, 0x80, 0x80, 0x00],
    ]) {
      const padded = concat(Uint8Array.from(prefix), framed);
      expect(() => decodeSszSnappy(codec, padded, any)).toThrow(
        expect.objectContaining({ reason: "non-minimal-prefix" }),
      );
      const lenient = { ...any, allowNonMinimalPrefix: true };
      expectBytes(decodeSszSnappy(codec, padded, lenient), data);
      expectBytes(await decodeSszSnappy(codec, pieces(padded, 1), lenient), data);
    }
    // Still at most 10 bytes.
    const eleven = concat(new Uint8Array(10).fill(0x80), Uint8Array.of(0), framed);
    expect(() => decodeSszSnappy(codec, eleven, { ...any, allowNonMinimalPrefix: true })).toThrow(
      expect.objectContaining({ reason: "prefix-overlong" }),
    );
    expect(() =>
      decodeSszSnappy(codec, framed, { ...any, allowNonMinimalPrefix: "yes" as never }),
    ).toThrow(/allowNonMinimalPrefix must be a boolean/);
  });
});

async function collectStream(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of source) parts.push(p);
  return concat(...parts);
}

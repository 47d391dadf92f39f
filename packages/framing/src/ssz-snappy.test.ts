import { maxCompressedLength } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import {
  ByteReader,
  decodeSszSnappy,
  decodeSszSnappyAt,
  decodeSszSnappySequence,
  encodeFramed,
  encodeSszSnappy,
  encodeSszSnappySequence,
  MAX_PAYLOAD_SIZE,
  readSszSnappy,
  STREAM_IDENTIFIER,
} from "./index.js";
import {
  asyncCodeOf,
  chunk,
  codecs,
  codeOf,
  concat,
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
      const sync = codeOf(() => decodeSszSnappy(codec, bytes, bounds));
      const streamed = await asyncCodeOf(() => decodeSszSnappy(codec, pieces(bytes, 777), bounds));
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
      expect(codeOf(() => encodeSszSnappy(codec, new Uint8Array(MAX_PAYLOAD_SIZE + 1)))).toBe(
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
      expect(await asyncCodeOf(() => readSszSnappy(codec, reader, any))).toBe("CORRUPT_INPUT");
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

import { describe, expect, it } from "vitest";
import { CHUNK_HEADER_SIZE, readChunkLength } from "./format.js";
import {
  ChunkType,
  crc32c,
  decodeFramed,
  encodeFramed,
  FrameEncoder,
  MAX_CHUNK_DATA,
  maskChecksum,
  STREAM_IDENTIFIER,
} from "./index.js";
import {
  chunk,
  codecs,
  codeOf,
  concat,
  decodeInSteps,
  expectBytes,
  flipped,
  randomBytes,
  structuredBytes,
} from "./test/helpers.js";

/** Walk a framed stream's chunk headers: [type, length][]. */
function chunkHeaders(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  for (let pos = 0; pos < bytes.length; ) {
    const length = readChunkLength(bytes, pos);
    out.push([bytes[pos]!, length]);
    pos += CHUNK_HEADER_SIZE + length;
  }
  return out;
}

const sizes = [0, 1, 100, 65535, 65536, 65537, 3 * 65536 + 17];

describe.each(codecs.map((c) => [c.name, c] as const))("framing over %s", (_name, codec) => {
  it("round-trips compressible and random data of every size", () => {
    for (const n of sizes) {
      for (const data of [structuredBytes(n), randomBytes(n, n + 1)]) {
        const framed = encodeFramed(codec, data);
        expectBytes(decodeFramed(codec, framed), data);
        expectBytes(decodeInSteps(codec, framed, 1000), data);
      }
    }
  });

  it("starts with the stream identifier and cuts chunks at chunkSize", () => {
    const data = structuredBytes(100_000);
    const framed = encodeFramed(codec, data, { chunkSize: 30_000 });
    expectBytes(framed.subarray(0, 10), STREAM_IDENTIFIER);
    const headers = chunkHeaders(framed);
    expect(headers[0]).toEqual([0xff, 6]);
    expect(headers.slice(1).map(([type]) => type)).toEqual([0, 0, 0, 0]);
    expectBytes(decodeFramed(codec, framed), data);
    expectBytes(encodeFramed(codec, new Uint8Array(0)), STREAM_IDENTIFIER);
  });

  it("falls back to uncompressed chunks when compression does not pay", () => {
    const data = concat(randomBytes(MAX_CHUNK_DATA, 3), structuredBytes(MAX_CHUNK_DATA));
    const framed = encodeFramed(codec, data);
    expect(chunkHeaders(framed)).toEqual([
      [ChunkType.streamIdentifier, 6],
      [ChunkType.uncompressed, 4 + MAX_CHUNK_DATA],
      [ChunkType.compressed, expect.any(Number)],
    ]);
    // The uncompressed chunk carries the masked CRC-32C of its data, little-endian.
    const stored = new DataView(framed.buffer, framed.byteOffset + 14, 4).getUint32(0, true);
    expect(stored).toBe(maskChecksum(crc32c(data.subarray(0, MAX_CHUNK_DATA))));
    expectBytes(decodeFramed(codec, framed), data);
  });

  it("rejects a chunkSize outside 1..65536", () => {
    for (const chunkSize of [0, 65537, 1.5, -1]) {
      expect(codeOf(() => encodeFramed(codec, new Uint8Array(1), { chunkSize }))).toBe(
        "INVALID_ARGUMENT",
      );
    }
    expect(encodeFramed(codec, Uint8Array.of(1, 2, 3), { chunkSize: 1 }).length).toBe(10 + 3 * 9);
  });

  it("decodes concatenated streams (repeated stream identifiers)", () => {
    const a = structuredBytes(70_000, 1);
    const b = randomBytes(500, 2);
    const framed = concat(encodeFramed(codec, a), encodeFramed(codec, b));
    expectBytes(decodeFramed(codec, framed), concat(a, b));
  });

  it("skips padding (0xfe) and reserved skippable chunks (0x80-0xfd)", () => {
    const data = structuredBytes(1000);
    const body = encodeFramed(codec, data).subarray(10);
    const framed = concat(
      STREAM_IDENTIFIER,
      chunk(0xfe, new Uint8Array(100)),
      chunk(0x80, [1, 2, 3]),
      body,
      chunk(0xfd, new Uint8Array(0)),
      chunk(0xaa, randomBytes(70_000)),
    );
    expectBytes(decodeFramed(codec, framed), data);
    expectBytes(decodeInSteps(codec, framed, 7), data);
  });

  it("accepts empty input and an empty data chunk", () => {
    expectBytes(decodeFramed(codec, new Uint8Array(0)), new Uint8Array(0));
    const emptyUncompressed = chunk(1, [0xd8, 0xea, 0x82, 0xa2]); // mask(crc32c("")) LE
    expect(decodeFramed(codec, concat(STREAM_IDENTIFIER, emptyUncompressed))).toEqual(
      new Uint8Array(0),
    );
  });

  it("returns a copy, not a view of the input, for an uncompressed chunk", () => {
    const data = randomBytes(100);
    const framed = encodeFramed(codec, data);
    const out = decodeFramed(codec, framed);
    framed.fill(0);
    expectBytes(out, data);
  });

  it("FrameEncoder output equals encodeFramed whatever the write sizes", () => {
    const data = structuredBytes(200_000);
    const expected = encodeFramed(codec, data, { chunkSize: 10_000 });
    for (const step of [1_000, 9_999, 10_000, 65_536, 200_000]) {
      const encoder = new FrameEncoder(codec, { chunkSize: 10_000 });
      const parts: Uint8Array[] = [];
      for (let pos = 0; pos < data.length; pos += step) {
        parts.push(...encoder.write(data.subarray(pos, pos + step)));
      }
      parts.push(...encoder.end());
      expectBytes(concat(...parts), expected);
    }
  });

  it("enforces maxLength with LENGTH_LIMIT and can skip checksum verification", () => {
    const data = structuredBytes(100_000);
    const framed = encodeFramed(codec, data);
    expect(codeOf(() => decodeFramed(codec, framed, { maxLength: 99_999 }))).toBe("LENGTH_LIMIT");
    expect(codeOf(() => decodeFramed(codec, framed, { maxLength: 100_000 }))).toBe("no error");
    const bad = flipped(framed, 14); // first data chunk's CRC
    expect(codeOf(() => decodeFramed(codec, bad))).toBe("CHECKSUM_MISMATCH");
    expectBytes(decodeFramed(codec, bad, { verifyChecksums: false }), data);
  });
});

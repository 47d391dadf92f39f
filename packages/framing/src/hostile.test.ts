// Conformance-style hostile input for the framing layer: every case must raise a SnappyError
// with the right code, from the one-shot and the streaming decoder alike.
import { describe, expect, it } from "vitest";
import {
  decodeFramed,
  encodeFramed,
  MAX_COMPRESSED_CHUNK_LENGTH,
  STREAM_IDENTIFIER,
} from "./index.js";
import {
  chunk,
  codecs,
  codeOf,
  concat,
  crcOf,
  decodeInSteps,
  expectRejected,
  flipped,
  le32,
  randomBytes,
  structuredBytes,
} from "./test/helpers.js";

describe.each(codecs.map((c) => [c.name, c] as const))("hostile framed input, %s", (_n, codec) => {
  const data = structuredBytes(150_000);
  const framed = encodeFramed(codec, data);

  it("corrupted CRC: CHECKSUM_MISMATCH on compressed and uncompressed chunks", () => {
    const bad = flipped(framed, 14, 0x80);
    expectRejected(codec, bad, "CHECKSUM_MISMATCH", /compressed chunk checksum mismatch.*byte 10/);
    const raw = randomBytes(1000);
    const plain = encodeFramed(codec, raw);
    expect(plain[10]).toBe(0x01);
    const badPlain = flipped(plain, 20); // a data byte, so the stored CRC no longer matches
    expectRejected(codec, badPlain, "CHECKSUM_MISMATCH", /uncompressed chunk checksum mismatch/);
  });

  it("reserved unskippable chunk types 0x02-0x7f: CORRUPT_INPUT", () => {
    for (const type of [0x02, 0x03, 0x40, 0x7f]) {
      const bytes = concat(STREAM_IDENTIFIER, chunk(type, [0, 0, 0, 0]));
      expectRejected(codec, bytes, "CORRUPT_INPUT", /reserved unskippable chunk type/);
    }
  });

  it("stream identifier: required first, exact length and contents", () => {
    expectRejected(
      codec,
      framed.subarray(10),
      "CORRUPT_INPUT",
      /must start with the stream identifier/,
    );
    expectRejected(codec, concat(chunk(0xfe, [0]), framed), "CORRUPT_INPUT", /must start/);
    const wrongText = concat(
      chunk(
        0xff,
        Array.from("sNaPpy", (c) => c.charCodeAt(0)),
      ),
    );
    expectRejected(codec, wrongText, "CORRUPT_INPUT", /does not contain sNaPpY/);
    expectRejected(
      codec,
      chunk(
        0xff,
        Array.from("sNaPpYY", (c) => c.charCodeAt(0)),
      ),
      "CORRUPT_INPUT",
      /length 7, not 6/,
    );
  });

  it("oversize chunks: CORRUPT_INPUT before reading or decompressing them", () => {
    const big = new Uint8Array(MAX_COMPRESSED_CHUNK_LENGTH + 1);
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x00, big)),
      "CORRUPT_INPUT",
      new RegExp(`oversize compressed chunk: ${MAX_COMPRESSED_CHUNK_LENGTH + 1} bytes`),
    );
    // Only the header: rejected from the length alone, without waiting for the body.
    expect(
      codeOf(() =>
        decodeFramed(codec, concat(STREAM_IDENTIFIER, Uint8Array.of(0, 0xff, 0xff, 0xff))),
      ),
    ).toBe("CORRUPT_INPUT");
    const plain = new Uint8Array(65541);
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x01, plain)),
      "CORRUPT_INPUT",
      /oversize uncompressed chunk: 65537 data bytes/,
    );
    // A compressed chunk whose Snappy preamble declares 65,537 bytes (valid raw data, wrong size).
    const over = new Uint8Array(65537).fill(7);
    const compressed = codec.compress(over);
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x00, concat(crcOf(over), compressed))),
      "CORRUPT_INPUT",
      /declares 65537 uncompressed bytes/,
    );
  });

  it("data chunks too short for their CRC: CORRUPT_INPUT", () => {
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x00, [1, 2, 3])),
      "CORRUPT_INPUT",
      /no room for its CRC/,
    );
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x01, [])),
      "CORRUPT_INPUT",
      /no room for its CRC/,
    );
  });

  it("corrupt Snappy data inside a chunk: CORRUPT_INPUT naming the chunk", () => {
    const body = Uint8Array.of(10, 0x0c, 97, 98); // declares 10 bytes, literal runs past the end
    expectRejected(
      codec,
      concat(STREAM_IDENTIFIER, chunk(0x00, concat(le32(0), body))),
      "CORRUPT_INPUT",
      /compressed chunk.*at byte 10/,
    );
  });

  it("truncation at every point inside a chunk: CORRUPT_INPUT", { timeout: 30_000 }, () => {
    const small = encodeFramed(codec, concat(structuredBytes(3000), randomBytes(3000)), {
      chunkSize: 3000,
    });
    const boundaries = new Set<number>([0, 10]);
    for (let pos = 10; pos < small.length; ) {
      pos += 4 + (small[pos + 1]! | (small[pos + 2]! << 8));
      boundaries.add(pos);
    }
    for (let cut = 1; cut < small.length; cut++) {
      const bytes = small.subarray(0, cut);
      if (boundaries.has(cut)) {
        // Ends on a chunk boundary: a valid (shorter) stream per §1.
        expect(codeOf(() => decodeFramed(codec, bytes))).toBe("no error");
      } else {
        expect(
          codeOf(() => decodeFramed(codec, bytes)),
          `cut at ${cut}`,
        ).toBe("CORRUPT_INPUT");
        // Byte-by-byte streaming on a sample of cuts (all of them takes seconds), 256-byte steps on all.
        const step = cut < 64 || cut % 61 === 0 ? 1 : 256;
        expect(
          codeOf(() => decodeInSteps(codec, bytes, step)),
          `cut at ${cut}`,
        ).toBe("CORRUPT_INPUT");
      }
    }
    expectRejected(
      codec,
      framed.subarray(0, framed.length - 1),
      "CORRUPT_INPUT",
      /truncated stream/,
    );
    expectRejected(
      codec,
      concat(framed, Uint8Array.of(0xfe, 0)),
      "CORRUPT_INPUT",
      /truncated stream.*chunk header/,
    );
  });

  it("trailing garbage after a valid stream: CORRUPT_INPUT (it reads as a bad chunk)", () => {
    expectRejected(
      codec,
      concat(framed, Uint8Array.of(0x05, 0, 0, 0)),
      "CORRUPT_INPUT",
      /reserved unskippable/,
    );
    expectRejected(
      codec,
      concat(framed, Uint8Array.of(0x00, 0x10, 0, 0, 1)),
      "CORRUPT_INPUT",
      /truncated/,
    );
  });

  it("over maxLength: LENGTH_LIMIT from every decoder", () => {
    expect(codeOf(() => decodeFramed(codec, framed, { maxLength: 1000 }))).toBe("LENGTH_LIMIT");
  });
});

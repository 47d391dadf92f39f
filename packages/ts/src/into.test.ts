import { isSnappyError, maxCompressedLength, type SnappyErrorCode } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { compress, compressInto } from "./compress.js";
import { uncompressedLength, uncompressInto } from "./decompress.js";
import { kernel } from "./kernel.js";
import { firstDifference, randomBytes, repetitive, structured } from "./test-support/inputs.js";

const SENTINEL = 0xa5;

function code(fn: () => unknown): SnappyErrorCode | undefined {
  try {
    fn();
  } catch (error) {
    if (isSnappyError(error)) return error.code;
    throw error;
  }
  return undefined;
}

const inputs = [
  new Uint8Array(0),
  randomBytes(7, 1),
  structured(144, 2),
  randomBytes(506, 3),
  repetitive(5000, 4, 3, 10),
  structured(70_000, 5),
  repetitive(200_000, 6, 1000, 50),
  randomBytes(70_000, 9), // a long last literal, copied from the input
  structured(600_000, 8), // more than one 256 KiB part
];

describe("compressInto", () => {
  it("writes exactly compress()'s bytes at any byteOffset and nothing past them", () => {
    for (const input of inputs) {
      const expected = compress(input);
      const max = maxCompressedLength(input.length);
      const backing = new Uint8Array(max + 16).fill(SENTINEL);
      const output = backing.subarray(5, 5 + max);
      const n = compressInto(input, output);
      expect(n).toBe(expected.length);
      expect(firstDifference(output.subarray(0, n), expected)).toBe(-1);
      expect(backing.subarray(0, 5).every((b) => b === SENTINEL)).toBe(true);
      expect(backing.subarray(5 + n).every((b) => b === SENTINEL)).toBe(true);
      // The same output again (the cached view) still gives the same bytes.
      expect(compressInto(input, output)).toBe(n);
    }
  });

  it.each([
    ["a long output (copied out with set)", structured(1000, 12)],
    ["a short output (written through the cached view)", repetitive(1000, 12, 4, 0)],
  ])(
    "reuses an output on a resizable buffer that shrinks, grows and shrinks out of bounds: %s",
    (_, input) => {
      // The cached view of the last output once threw a TypeError here: its length was read
      // from the view, which throws once the buffer shrinks below it. A view kept for a
      // shrunk array would be out of bounds.
      const expected = compress(input);
      const max = maxCompressedLength(input.length);
      const memory = new ArrayBuffer(2 * max, { maxByteLength: 4 * max });
      const tracking = new Uint8Array(memory); // length-tracking: follows every resize
      const fixed = new Uint8Array(memory, 0, max + 10);
      for (const [size, output] of [
        [2 * max, tracking],
        [max, tracking],
        [4 * max, tracking],
        [max + 10, fixed],
        [max, fixed], // out of bounds: the view now has length 0
        [3 * max, fixed],
      ] as const) {
        memory.resize(size);
        if (output.length < max) {
          expect(code(() => compressInto(input, output))).toBe("OUTPUT_TOO_SMALL");
          continue;
        }
        const n = compressInto(input, output);
        expect(firstDifference(output.subarray(0, n), expected), `resized to ${size}`).toBe(-1);
      }
    },
  );

  it("rejects an output under the worst case before writing, even if this input fits", () => {
    const input = repetitive(1000, 7, 4, 0); // compresses to ~60 bytes
    const output = new Uint8Array(maxCompressedLength(1000) - 1).fill(SENTINEL);
    expect(code(() => compressInto(input, output))).toBe("OUTPUT_TOO_SMALL");
    expect(output.every((b) => b === SENTINEL)).toBe(true);
  });

  it("rejects overlapping and non-byte arguments", () => {
    const shared = new Uint8Array(4000);
    const input = shared.subarray(0, 1000);
    expect(code(() => compressInto(input, shared.subarray(500)))).toBe("INVALID_ARGUMENT");
    expect(code(() => compressInto(input, [] as unknown as Uint8Array))).toBe("INVALID_ARGUMENT");
    expect(compressInto(shared.subarray(0, 100), shared.subarray(100))).toBeGreaterThan(0);
  });
});

describe("uncompressInto", () => {
  it("writes exactly the input at any byteOffset and nothing past the declared length", () => {
    for (const input of inputs) {
      const stream = compress(input);
      expect(uncompressedLength(stream)).toBe(input.length);
      const backing = new Uint8Array(input.length + 100).fill(SENTINEL);
      const output = backing.subarray(3, 3 + input.length + 90);
      expect(uncompressInto(stream, output)).toBe(input.length);
      expect(firstDifference(output.subarray(0, input.length), input)).toBe(-1);
      expect(backing.subarray(0, 3).every((b) => b === SENTINEL)).toBe(true);
      expect(backing.subarray(3 + input.length).every((b) => b === SENTINEL)).toBe(true);
    }
  });

  it("rejects a short output before writing, and hostile input as uncompress does", () => {
    const stream = compress(structured(300, 8));
    const short = new Uint8Array(299).fill(SENTINEL);
    expect(code(() => uncompressInto(stream, short))).toBe("OUTPUT_TOO_SMALL");
    expect(short.every((b) => b === SENTINEL)).toBe(true);
    const out = new Uint8Array(1000);
    expect(code(() => uncompressInto(stream, out, { maxLength: 299 }))).toBe("LENGTH_LIMIT");
    expect(code(() => uncompressInto(stream.subarray(0, 100), out))).toBe("CORRUPT_INPUT");
    // 2047 bytes declared by a 1-byte body: a decompression bomb, rejected from the preamble.
    expect(code(() => uncompressInto(Uint8Array.of(0xff, 0x0f, 0), new Uint8Array(4096)))).toBe(
      "CORRUPT_INPUT",
    );
    expect(code(() => uncompressedLength(Uint8Array.of(100, 0)))).toBe("CORRUPT_INPUT");
  });

  it("decodes a small output overlapping the input as from a copy, and refuses a large one", () => {
    for (const [size, at] of [
      [500, 0],
      [500, 1],
      [4095, 3],
      [4096, 7],
    ] as const) {
      const data = structured(size, 9);
      const stream = compress(data);
      const shared = new Uint8Array(2 * size + 100).fill(SENTINEL);
      shared.set(stream, 50);
      const input = shared.subarray(50, 50 + stream.length);
      // Without the kernel (plain.ts writes as it reads) every overlap is refused.
      if (kernel === null) {
        expect(code(() => uncompressInto(input, shared.subarray(at)))).toBe("INVALID_ARGUMENT");
        continue;
      }
      expect(uncompressInto(input, shared.subarray(at))).toBe(size);
      expect(firstDifference(shared.subarray(at, at + size), data)).toBe(-1);
      expect(shared.subarray(at + size).every((b) => b === SENTINEL)).toBe(true);
    }
    // Over 4 KiB (SMALL_OUTPUT) the kernel writes as it reads: an overlap is refused.
    for (const size of [4097, 5000]) {
      const large = compress(structured(size, 9));
      const shared = new Uint8Array(large.length + size);
      shared.set(large);
      expect(code(() => uncompressInto(shared.subarray(0, large.length), shared))).toBe(
        "INVALID_ARGUMENT",
      );
      expect(uncompressInto(shared.subarray(0, large.length), shared.subarray(large.length))).toBe(
        size,
      );
    }
  });
});

// Where the decoder copies bytes (windows.ts says why): a mostly incompressible stream is read
// through a small input window (SPARSE_IN), its long literals go straight to the destination, and a copy
// after such a literal takes output back into the window. A wrong choice still decodes the
// same bytes, only with more copying, so these tests look at the windows themselves: each
// fills a window with a marker byte, decodes, and checks which part of it was written.
import { copy1, copy2, literal, literalHeader } from "@snappykit/conformance";
import { encodeUncompressedLength } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { uncompress, uncompressedLength, uncompressInto } from "./decompress.js";
import { firstDifference, oracleUncompress, randomBytes } from "./test-support/inputs.js";
import { windows } from "./windows.js";

const { IN, OUT, SPARSE_IN, DIRECT, SMALL_OUTPUT } = windows();
const MARK = 0xee;

const stream = (length: number, ...elements: number[][]) =>
  Uint8Array.from([...encodeUncompressedLength(length), ...elements.flat()]);
// Through uncompressInto: with a destination array even a short output may go straight to it.
const decode = (input: Uint8Array) => {
  const output = new Uint8Array(uncompressedLength(input));
  uncompressInto(input, output);
  return output;
};

/**
 * A stream of `outEnd` bytes that is exactly `size` bytes long: one literal, then 64-byte
 * copy-2s (3 bytes each) and 4-byte copy-1s (2 bytes each) in the proportion that makes the
 * size come out exactly.
 */
function streamOfSize(outEnd: number, size: number): Uint8Array {
  const preamble = encodeUncompressedLength(outEnd).length;
  for (let copies = 0; copies * 64 < outEnd; copies++) {
    for (let short = 0; copies * 64 + short * 4 < outEnd - 256; short++) {
      const rest = outEnd - copies * 64 - short * 4;
      if (preamble + literalHeader(rest).length + rest + copies * 3 + short * 2 !== size) continue;
      const data = new Uint8Array(rest).fill(0x11);
      const elements = [literal(data)];
      for (let i = 0; i < copies; i++) elements.push(copy2(64, 100));
      for (let i = 0; i < short; i++) elements.push(copy1(4, 7));
      const built = stream(outEnd, ...elements);
      expect(built.length).toBe(size);
      return built;
    }
  }
  throw new Error(`no stream of ${outEnd} bytes is ${size} bytes long`);
}

describe("the input window", () => {
  // decodeBody: a stream is "mostly incompressible" when longer than 7/8 of its output.
  const outEnd = 10_000;
  const limit = outEnd - (outEnd >>> 3);

  it(`of a stream at most 7/8 of its output (${limit} of ${outEnd}) is 32 KiB: the whole input is copied in`, () => {
    const input = streamOfSize(outEnd, limit);
    IN.fill(MARK);
    expect(decode(input).length).toBe(outEnd);
    expect(IN.subarray(0, input.length)).toEqual(input);
  });

  it(`of a longer stream (one byte more) is ${SPARSE_IN} B: nothing past it is written`, () => {
    const input = streamOfSize(outEnd, limit + 1);
    IN.fill(MARK);
    expect(decode(input).length).toBe(outEnd);
    expect(IN.subarray(SPARSE_IN, input.length).every((b) => b === MARK)).toBe(true);
  });

  it(`of a longer stream of a small output (${SMALL_OUTPUT} B) is 32 KiB: its literals never go direct`, () => {
    const small = SMALL_OUTPUT;
    const input = streamOfSize(small, small - (small >>> 3) + 1);
    IN.fill(MARK);
    expect(decode(input).length).toBe(small);
    expect(IN.subarray(0, input.length)).toEqual(input);
  });
});

describe("the sparse input window's end", () => {
  it(`decodes elements whose tags lie around byte ${SPARSE_IN} (its end), ±20`, () => {
    // A first literal of SPARSE_IN - 20 .. SPARSE_IN + 2 bytes puts the next elements' tags at
    // every position around the window's end and its refill (fewer than 17 bytes left), in a
    // sparse stream longer than SMALL_OUTPUT, so that the small window is the one in use.
    const long = randomBytes(SMALL_OUTPUT + 1000, 3);
    for (let first = SPARSE_IN - 20; first <= SPARSE_IN + 2; first++) {
      const elements = [
        literal(randomBytes(first, first)),
        literal(randomBytes(7, 1)),
        copy1(4, 5),
        literal(randomBytes(40, 2)),
        copy2(9, 30),
        literal(long),
        literal(randomBytes(3, 4)),
      ];
      const input = stream(first + 7 + 4 + 40 + 9 + long.length + 3, ...elements);
      expect(input.length > uncompressedLength(input) * (7 / 8)).toBe(true);
      expect(firstDifference(decode(input), oracleUncompress(input)), `first ${first}`).toBe(-1);
    }
  });
});

describe("a literal of a mostly incompressible stream", () => {
  // Short literals around it, so that the stream is sparse and the window has something of
  // its own before and after.
  const around = (length: number) => {
    const data = new Uint8Array(length).fill(0x33);
    const before = new Uint8Array(100).fill(0x22);
    const after = new Uint8Array(100).fill(0x44);
    return stream(length + 200, literal(before), literal(data), literal(after));
  };
  it(`of DIRECT (${DIRECT}) bytes goes straight to the destination, not through the output window`, () => {
    OUT.fill(MARK);
    const output = decode(around(DIRECT));
    expect(output.subarray(100, 100 + DIRECT).every((b) => b === 0x33)).toBe(true);
    // Past the 32 bytes the fast path may over-copy after the literal before it.
    expect(OUT.subarray(100 + 32, 2 * DIRECT).includes(0x33)).toBe(false);
  });

  it("of DIRECT - 1 bytes goes through the output window", () => {
    OUT.fill(MARK);
    decode(around(DIRECT - 1));
    expect(OUT.subarray(100, 100 + DIRECT - 1).every((b) => b === 0x33)).toBe(true);
  });

  it("is taken back into the window by a copy that reaches before it", () => {
    // After the direct literal the window starts empty; a copy from the literal's first byte
    // (the farthest back it can take) brings the whole literal back, then copies from it
    // there, where the byte-by-byte loop for copies from further back would not.
    const input = stream(
      DIRECT + 1 + 4,
      literal(new Uint8Array(DIRECT + 1).fill(0x55)),
      copy2(4, DIRECT + 1),
    );
    OUT.fill(MARK);
    expect(decode(input).every((b) => b === 0x55)).toBe(true);
    expect(OUT.subarray(0, DIRECT + 1 + 4).every((b) => b === 0x55)).toBe(true);
  });
});

describe("uncompress of a small output", () => {
  // Up to SMALL_OUTPUT bytes, uncompress decodes without a destination array, in the output
  // window, and copies the result out once: even a literal of DIRECT bytes (the size of a
  // sparse stream's direct literals) stays in the window.
  it(`of SMALL_OUTPUT (${SMALL_OUTPUT}) bytes in one literal is decoded in the output window`, () => {
    const data = new Uint8Array(SMALL_OUTPUT).fill(0x66);
    OUT.fill(MARK);
    expect(uncompress(stream(SMALL_OUTPUT, literal(data)))).toEqual(data);
    expect(OUT.subarray(0, SMALL_OUTPUT)).toEqual(data);
  });
});

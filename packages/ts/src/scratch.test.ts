// What compress keeps between calls: inputs over one part (PART, 256 KiB) are compressed into
// a reused buffer that grows by doubling up to SCRATCH_MAX (a 1 MiB input's worst case), and
// never past it. Its own file, so it starts from a module that has kept nothing yet.
import { maxCompressedLength } from "@snappykit/core";
import { expect, it } from "vitest";
import { compress, internals, SCRATCH_MAX } from "./compress.js";
import { uncompress } from "./decompress.js";
import { firstDifference } from "./test-support/inputs.js";

const PART = 1 << 18;
const kept = () => internals().scratch;
const compressZeros = (n: number) => {
  const input = new Uint8Array(n);
  const out = compress(input);
  // firstDifference, not toEqual: vitest's deep equality crawls large arrays element-wise.
  expect(firstDifference(uncompress(out), input)).toBe(-1);
};

/** The input length whose worst case is exactly `max` bytes. */
function inputFor(max: number): number {
  let n = max - 32 - Math.floor(max / 7);
  while (maxCompressedLength(n) < max) n++;
  expect(maxCompressedLength(n)).toBe(max);
  return n;
}

it("keeps nothing for an input of one part", () => {
  compressZeros(PART);
  expect(kept().length).toBe(0);
});

it("keeps the worst case of the first longer input, then doubles, then reuses", () => {
  compressZeros(PART + 1);
  const first = kept();
  expect(first.length).toBe(maxCompressedLength(PART + 1));
  compressZeros(PART + 2);
  const doubled = kept();
  expect(doubled.length).toBe(2 * first.length);
  // An input whose worst case fills the buffer exactly reuses it.
  compressZeros(inputFor(doubled.length));
  expect(kept()).toBe(doubled);
});

it(`keeps at most SCRATCH_MAX (${SCRATCH_MAX}) bytes: a 1 MiB input's worst case, no more`, () => {
  compressZeros(1 << 20);
  const full = kept();
  expect(full.length).toBe(SCRATCH_MAX);
  compressZeros((1 << 20) + 1);
  expect(kept()).toBe(full);
});

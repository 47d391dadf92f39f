import { describe, expect, it } from "vitest";
import { INPUT_OFFSET, OUTPUT_OFFSET, PAGE, place } from "./placement.js";

describe("place", () => {
  it("puts each input at +64 and the output at +2112 of pages of their own", () => {
    const inputs = [5000, 1, 0, 4096 - 64, 12345].map((n) => new Uint8Array(n).fill(n & 255));
    const { inputs: placed, output } = place(inputs, 70_000);
    expect(output.byteOffset % PAGE).toBe(OUTPUT_OFFSET);
    expect(output.length).toBe(70_000);
    for (const [i, view] of placed.entries()) {
      expect(view.byteOffset % PAGE).toBe(INPUT_OFFSET);
      expect(view).toEqual(inputs[i]);
      expect(view.buffer).toBe(output.buffer);
    }
    // Nothing shares a page with anything else: no two regions overlap.
    const regions = [output, ...placed].map((v) => [v.byteOffset, v.byteOffset + v.length]);
    regions.sort((a, b) => a[0]! - b[0]!);
    for (let i = 1; i < regions.length; i++)
      expect(Math.floor(regions[i]![0]! / PAGE)).toBeGreaterThan(
        Math.floor((regions[i - 1]![1]! - 1) / PAGE),
      );
  });
});

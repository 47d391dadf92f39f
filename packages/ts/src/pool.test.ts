import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { uncompress } from "./decompress.js";
import { firstDifference, randomBytes, structured } from "./test-support/inputs.js";

describe("pooled results", () => {
  it("never change after being returned, across many calls and new slabs", () => {
    const inputs = Array.from({ length: 300 }, (_, i) =>
      i % 2 ? structured(50 + i, i) : randomBytes(20 + i, i),
    );
    const compressed = inputs.map(compress);
    const snapshots = compressed.map((c) => c.slice());
    const decoded = compressed.map((c) => uncompress(c));
    for (let i = 0; i < inputs.length; i++) {
      expect(firstDifference(compressed[i]!, snapshots[i]!)).toBe(-1);
      expect(firstDifference(decoded[i]!, inputs[i]!)).toBe(-1);
    }
  });

  it("do not overlap one another", () => {
    const a = compress(structured(300, 1));
    const b = uncompress(compress(structured(300, 2)));
    if (a.buffer === b.buffer) {
      const [first, second] = a.byteOffset < b.byteOffset ? [a, b] : [b, a];
      expect(first.byteOffset + first.length).toBeLessThanOrEqual(second.byteOffset);
    }
  });

  it("survive the caller transferring (detaching) a result's buffer", () => {
    const a = compress(structured(300, 3));
    const buffer = a.buffer as ArrayBuffer;
    structuredClone(buffer, { transfer: [buffer] });
    expect(a.length).toBe(0); // detached
    const input = structured(300, 4);
    expect(firstDifference(uncompress(compress(input)), input)).toBe(-1);
  });

  it("leave small failed decodes without effect on later results", () => {
    expect(() => uncompress(Uint8Array.of(20, 0x0c, 1, 2, 3, 4))).toThrow();
    const input = structured(100, 5);
    expect(firstDifference(uncompress(compress(input)), input)).toBe(-1);
  });
});

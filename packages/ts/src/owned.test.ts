import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { uncompress } from "./decompress.js";
import { firstDifference, randomBytes, structured } from "./test-support/inputs.js";

const SIZES = [0, 1, 18, 144, 240, 2047, 2048, 5000, 70_000, (1 << 20) + 3];

describe("every result owns its memory", () => {
  it("has byteOffset 0 and a buffer of exactly its length, for every size path", () => {
    for (const n of SIZES) {
      const input = structured(n, n);
      const c = compress(input);
      const u = uncompress(c);
      for (const r of [c, u]) {
        expect(r.byteOffset, `${n}`).toBe(0);
        expect(r.buffer.byteLength, `${n}`).toBe(r.length);
        expect(Object.getPrototypeOf(r), `${n}`).toBe(Uint8Array.prototype);
      }
      expect(firstDifference(u, input)).toBe(-1);
    }
  });

  it("survives the caller transferring another result's buffer", () => {
    const inputs = [structured(300, 1), randomBytes(18, 2), structured(144, 3)];
    const compressed = inputs.map(compress);
    const decoded = compressed.map((c) => uncompress(c));
    for (const r of [compressed[0]!, decoded[0]!]) {
      const buffer = r.buffer as ArrayBuffer;
      structuredClone(buffer, { transfer: [buffer] });
      expect(r.length).toBe(0); // detached: only this one
    }
    for (let i = 1; i < inputs.length; i++) {
      expect(firstDifference(uncompress(compressed[i]!), inputs[i]!)).toBe(-1);
      expect(firstDifference(decoded[i]!, inputs[i]!)).toBe(-1);
    }
  });

  it("never changes after being returned, across many calls", () => {
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
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { uncompress } from "./decompress.js";
import {
  firstDifference,
  inputArb,
  oracleCompress,
  randomBytes,
  repetitive,
  sszLike,
  structured,
} from "./test-support/inputs.js";

/** Quick by default; `pnpm run property` sets 100,000 (see scripts/property.mjs). */
const RUNS = Number(process.env.SNAPPYKIT_PROPERTY_RUNS ?? 2000);

function expectSameAsOracle(input: Uint8Array): void {
  const ours = compress(input);
  const theirs = oracleCompress(input);
  const at = firstDifference(ours, theirs);
  if (at !== -1) {
    throw new Error(
      `differs from snappy@7 at byte ${at} of ${theirs.length} (ours ${ours.length}) ` +
        `for a ${input.length}-byte input`,
    );
  }
  const back = uncompress(ours);
  // firstDifference, not toEqual: vitest's deep equality crawls large arrays element-wise.
  if (firstDifference(back, input) !== -1)
    throw new Error(`round trip failed at ${input.length} bytes`);
}

const fill = (n: number, byte: number) => new Uint8Array(n).fill(byte);
const text = (s: string) => new TextEncoder().encode(s);

describe("compress: exact bytes", () => {
  it("writes hand-checked streams", () => {
    // §1 preamble only.
    expect(compress(new Uint8Array(0))).toEqual(Uint8Array.of(0));
    // Under 15 bytes: one literal, no matching even for repeats.
    expect(compress(fill(14, 0x61))).toEqual(Uint8Array.of(14, 13 << 2, ...fill(14, 0x61)));
    // 20 × 'a': literal 'a', then one copy-2 (len 19 ≥ 12) at offset 1.
    expect(compress(fill(20, 0x61))).toEqual(Uint8Array.of(20, 0, 0x61, (18 << 2) | 2, 1, 0));
    // 16 × 'a' would match, but no match may start within 15 bytes of the block end.
    expect(compress(fill(16, 0x61))).toEqual(Uint8Array.of(16, 15 << 2, ...fill(16, 0x61)));
  });

  it("emits copy-1 for lengths 4..11 with offsets below 2048", () => {
    // "abcdefgh" + 16 random bytes + "abcdefgh" + 20 random: an 8-byte copy, offset 24.
    const input = new Uint8Array([
      ...text("abcdefgh"),
      ...randomBytes(16, 1),
      ...text("abcdefgh"),
      ...randomBytes(20, 2),
    ]);
    const out = compress(input);
    expect(out).toEqual(oracleCompress(input));
    expect(out).toContain(1 | ((8 - 4) << 2)); // copy-1 tag, len 8, offset < 256
  });
});

describe("compress: byte-identical to snappy@7", () => {
  it.each([0, 1, 2, 3, 4, 14, 15, 16, 17, 18, 19, 31, 32, 33, 60, 61, 62, 255, 256, 257, 1000])(
    "%i bytes of random, zeros and text",
    (n) => {
      expectSameAsOracle(randomBytes(n, n));
      expectSameAsOracle(fill(n, 0));
      expectSameAsOracle(structured(n, n));
    },
  );

  it("literal length boundaries (60, 61, 256, 257 and a 64 KiB literal)", () => {
    for (const n of [59, 60, 61, 62, 255, 256, 257, 258, 65535, 65536]) {
      expectSameAsOracle(randomBytes(n, 7 + n));
    }
  });

  it("long matches split by the 64/60 rule (lengths 60..140)", () => {
    for (let len = 60; len <= 140; len++) {
      // A 300-byte random prefix, then `len` bytes repeating it, then fresh random bytes.
      const prefix = randomBytes(300, len);
      const input = new Uint8Array([
        ...prefix,
        ...prefix.subarray(0, len),
        ...randomBytes(40, -len),
      ]);
      expectSameAsOracle(input);
    }
  });

  it("offsets on both sides of 2048 (copy-1 vs copy-2)", () => {
    for (let gap = 2030; gap <= 2060; gap++) {
      const word = randomBytes(10, gap);
      const input = new Uint8Array([
        ...word,
        ...randomBytes(gap - 10, gap + 1),
        ...word,
        ...randomBytes(30, 3),
      ]);
      expectSameAsOracle(input);
    }
  });

  it("sizes around the 64 KiB block boundary, 1 and 3 MiB", () => {
    for (const n of [65535, 65536, 65537, 131071, 131072, 131073, 196613]) {
      expectSameAsOracle(randomBytes(n, n));
      expectSameAsOracle(fill(n, 0xaa));
      expectSameAsOracle(repetitive(n, n, 1000, 50));
      expectSameAsOracle(sszLike(n, n));
    }
    expectSameAsOracle(randomBytes(1 << 20, 1));
    expectSameAsOracle(structured(3 << 20, 3));
  });

  it("a match at each of the first probes, with the block's limit before, at and after it", () => {
    // A search probes one byte at a time for its first 32 probes, and only while the next
    // position is within the limit (length - 15); the kernel runs those 32 without a bound
    // per probe where all of them are within it. A repeat of the first 4 bytes at `at`
    // (probe at-1 of the first search) is found or not depending on where the limit falls;
    // a second repeat after it does the same for a search that starts after a copy.
    for (let at = 20; at <= 40; at++) {
      for (let n = at + 12; n <= at + 20; n++) {
        const input = randomBytes(n, at * 100 + n);
        input.set(input.subarray(0, 4), at);
        expectSameAsOracle(input);
        const twice = randomBytes(n + 24, at * 100 + n);
        twice.set(twice.subarray(0, 8), 16);
        twice.set(twice.subarray(0, 4), at + 24);
        expectSameAsOracle(twice);
      }
    }
  });

  it("hash table sizes: every power of two from 256 to 16384 and past it", () => {
    for (let n = 200; n <= 40000; n = Math.ceil(n * 1.37)) {
      expectSameAsOracle(structured(n, n));
      expectSameAsOracle(randomBytes(n, n, 0x07));
    }
  });

  it("accepts a Buffer and a subarray view", () => {
    const base = structured(5000, 5);
    expectSameAsOracle(Buffer.from(base));
    expectSameAsOracle(base.subarray(123, 4567));
  });

  it("rejects non-byte input with INVALID_ARGUMENT", () => {
    expect(() => compress("abc" as never)).toThrow(/input must be a Uint8Array/);
    try {
      compress([1, 2, 3] as never);
    } catch (error) {
      expect((error as { code?: string }).code).toBe("INVALID_ARGUMENT");
      return;
    }
    throw new Error("accepted an array");
  });

  it("bytes left in the shared buffers by a longer input never reach the output", () => {
    // Literal moves and the last match compare read past the block's end, and moves write
    // past an element's end in the staging buffer: those bytes are an earlier input's.
    for (let n = 1; n <= 300; n++) {
      compress(randomBytes(70_000, n));
      expectSameAsOracle(randomBytes(n, -n));
      // Stale bytes equal to the input's: a match must still end at the input's end.
      compress(fill(70_000, 0xfe));
      expectSameAsOracle(fill(n, 0xfe));
      expectSameAsOracle(structured(n, n));
    }
  });

  it("does not alias: an earlier result survives later calls", () => {
    const a = compress(structured(1000, 1));
    const copy = a.slice();
    compress(structured(1000, 2));
    expect(a).toEqual(copy);
  });
});

describe("compress: property-based against snappy@7", () => {
  it(`${RUNS} generated inputs (random, repetitive, structured, SSZ-like, mixed)`, () => {
    let inputs = 0;
    let bytes = 0;
    const started = performance.now();
    fc.assert(
      fc.property(inputArb, ({ bytes: input }) => {
        inputs++;
        bytes += input.length;
        expectSameAsOracle(input);
      }),
      { numRuns: RUNS },
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `property: ${inputs} inputs (${(bytes / 2 ** 20).toFixed(1)} MiB) byte-identical to snappy@7 in ${seconds.toFixed(1)} s`,
    );
    expect(inputs).toBeGreaterThanOrEqual(RUNS);
  }, 3_600_000);
});

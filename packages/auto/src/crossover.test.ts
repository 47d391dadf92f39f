import { describe, expect, it } from "vitest";
import { findCrossover, type RatioPoint, zeroCrossings } from "./crossover.js";

const names = { a: "ts", b: "napi" };
const RANGE = "64 B–4 MiB";
/** Points at 64 B × 4^i with the given ratios a / b and ± `spread` (multiplicative). */
const pts = (ratios: readonly number[], spread?: number): RatioPoint[] =>
  ratios.map((ratio, i) => ({
    size: 64 * 4 ** i,
    ratio,
    ...(spread !== undefined && { low: ratio / spread, high: ratio * spread, level: 0.96 }),
  }));

describe("zeroCrossings", () => {
  it("interpolates linearly and counts a touch once", () => {
    expect(zeroCrossings([0, 1, 2], [-1, 1, 3])).toEqual([0.5]);
    expect(zeroCrossings([0, 1, 2], [-1, 0, 1])).toEqual([1]);
    expect(zeroCrossings([0, 1], [1, 2])).toEqual([]);
  });
});

describe("findCrossover", () => {
  it("interpolates in log size and log ratio between the bracketing sizes", () => {
    // 0.5 at 1 KiB, 2 at 4 KiB: log ratio −ln2 → +ln2, so 1 is reached halfway in log2
    // size, at 2 KiB.
    const r = findCrossover(pts([0.25, 0.3, 0.5, 2, 3]), names, RANGE);
    expect(r.fasterBelow).toBe("a");
    expect(r.size).toBeCloseTo(2048, 6);
    expect(r.crossings).toBe(1);
    expect(r.ci).toBeNull(); // no intervals given
  });

  it("takes its interval from where the ratio's bounds cross 1", () => {
    // ×1.5 bounds: upper bound 0.75 at 1 KiB and 3 at 4 KiB → crosses at log2 = 10 +
    // ln(1/0.75)/ln(4) × 2; lower bound 1.333 at 4 KiB, 0.333 at 1 KiB → the mirror.
    const r = findCrossover(pts([0.25, 0.3, 0.5, 2, 3], 1.5), names, RANGE);
    const upX = 10 + (Math.log(1 / 0.75) / Math.log(4)) * 2;
    const lowX = 10 + (Math.log(3) / Math.log(4)) * 2;
    expect(Math.log2(r.ci!.low!)).toBeCloseTo(upX, 6);
    expect(Math.log2(r.ci!.high!)).toBeCloseTo(lowX, 6);
    expect(r.ci!.low!).toBeLessThan(r.size!);
    expect(r.ci!.high!).toBeGreaterThan(r.size!);
    expect(r.ci!.level).toBe(0.96);
  });

  it("leaves a bound open (null) when it lies outside the range", () => {
    // Never significantly different at the small end, nor at the large end.
    const r = findCrossover(pts([0.9, 0.95, 1.05, 1.1], 1.3), names, RANGE);
    expect(r.size).not.toBeNull();
    expect(r.ci).toEqual({ low: null, high: null, level: 0.96 });
  });

  it("says 'never in range' when one side is faster at every size", () => {
    const r = findCrossover(pts([0.2, 0.3, 0.5, 0.8]), names, RANGE);
    expect(r.size).toBeNull();
    expect(r.ci).toBeNull();
    expect(r.fasterBelow).toBe("a");
    expect(r.reason).toBe(
      "never in range: ts is faster than napi at every size of 64 B–4 MiB (p50)",
    );
    const b = findCrossover(pts([2, 3, 1.5]), names, RANGE);
    expect(b.reason).toContain("napi is faster than ts at every size");
    expect(b.fasterBelow).toBe("b");
  });

  it("finds a crossing the other way round (b faster below)", () => {
    const r = findCrossover(pts([4, 2, 0.5, 0.25]), names, RANGE);
    expect(r.fasterBelow).toBe("b");
    expect(r.size).toBeCloseTo(512, 6);
  });

  it("picks the threshold that agrees with the most sizes when noise crosses twice", () => {
    // A tie at 64 B–256 B wobbles across 1; the real crossing is between 16 and 64 KiB.
    const r = findCrossover(pts([1.02, 0.98, 0.6, 0.5, 0.7, 2, 3, 4, 5]), names, RANGE);
    expect(r.crossings).toBe(2);
    expect(r.fasterBelow).toBe("a");
    expect(r.size!).toBeGreaterThan(16 * 1024);
    expect(r.size!).toBeLessThan(64 * 1024);
  });

  it("prefers 'never in range' to a crossing that disagrees with more sizes", () => {
    // One noisy point above 1 among many below: a is faster at most sizes.
    const r = findCrossover(pts([0.5, 0.5, 0.5, 1.1, 0.5, 0.5]), names, RANGE);
    expect(r.size).toBeNull();
    expect(r.reason).toContain("ts is faster than napi at most sizes");
  });

  it("ignores points without a usable ratio", () => {
    const r = findCrossover(
      [
        { size: 64, ratio: Number.NaN },
        ...pts([0.5, 2]).map((p, i) => ({ ...p, size: 256 * 4 ** i })),
      ],
      names,
      RANGE,
    );
    expect(r.size).toBeCloseTo(512, 6);
    expect(findCrossover([], names, RANGE).reason).toBe("no data");
  });
});

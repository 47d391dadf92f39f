import { describe, expect, it } from "vitest";
import {
  benjaminiHochberg,
  mannWhitney,
  medianEstimate,
  pairedRatio,
  twoSpeedCut,
  uCounts,
} from "./stats.js";

describe("medianEstimate", () => {
  it("gives the median and the widest order-statistic interval reaching 95 %", () => {
    const e = medianEstimate([5, 1, 9, 3, 7, 2, 8, 4, 6]);
    expect(e.value).toBe(5);
    // n = 9: [x(2), x(8)] covers 1 − 2·P(Bin(9, ½) ≤ 1) = 1 − 20/512.
    expect(e.ci).toMatchObject({ low: 2, high: 8 });
    expect(e.ci!.level).toBeCloseTo(1 - 20 / 512, 12);
  });

  it("falls back to [min, max] with the level it reaches when forks are few", () => {
    const e = medianEstimate([3, 1, 2]);
    expect(e.ci).toMatchObject({ low: 1, high: 3 });
    expect(e.ci!.level).toBeCloseTo(0.75, 12);
  });

  it("is not moved by one outlying fork", () => {
    const e = medianEstimate([100, 101, 99, 102, 98, 100, 101, 99, 3000]);
    expect(e.value).toBe(100);
    expect(e.ci!.high).toBeLessThan(110);
  });

  it("has no interval for one value and no value for none", () => {
    expect(medianEstimate([4]).ci).toBeUndefined();
    expect(Number.isNaN(medianEstimate([]).value)).toBe(true);
  });
});

describe("pairedRatio", () => {
  it("divides fork by fork, so a fork that is slow for both cancels", () => {
    const e = pairedRatio([2, 4, 20, 2, 2, 2], [1, 2, 10, 1, 1, 1]);
    expect(e.value).toBe(2);
    expect(e.ci).toMatchObject({ low: 2, high: 2 });
  });

  it("skips forks that lost either side", () => {
    expect(pairedRatio([2, Number.NaN, 2], [1, 1, Number.NaN]).n).toBe(1);
  });
});

describe("uCounts", () => {
  it("is the exact Mann–Whitney null distribution", () => {
    // m = n = 2: U ∈ {0,1,2,3,4} arises 1,1,2,1,1 ways out of C(4,2) = 6.
    expect(uCounts(2, 2)).toEqual([1, 1, 2, 1, 1]);
    const c = uCounts(9, 9);
    expect(c.reduce((a, x) => a + x, 0)).toBe(48620); // C(18, 9)
    // Published two-sided α = 0.05 critical value for m = n = 9 is 17: P(U ≤ 17) ≤ 0.025 < P(U ≤ 18).
    const cdf = (u: number) => c.slice(0, u + 1).reduce((a, x) => a + x, 0) / 48620;
    expect(cdf(17)).toBeLessThanOrEqual(0.025);
    expect(cdf(18)).toBeGreaterThan(0.025);
  });
});

describe("mannWhitney", () => {
  const base = [100, 103, 98, 101, 99, 102, 97, 100, 104];

  it("finds a consistent 20 % slowdown and estimates it", () => {
    const t = mannWhitney(
      base,
      base.map((x) => x * 1.2),
    )!;
    expect(t.p).toBeLessThan(0.001);
    expect(t.ratio).toBeCloseTo(1.2, 2);
    expect(t.ci!.low).toBeGreaterThan(1.1);
    expect(t.ci!.high).toBeLessThan(1.3);
  });

  it("finds nothing in a reshuffle of the same values, even with an outlier", () => {
    const t = mannWhitney(base, [101, 99, 3000, 100, 98, 102, 103, 97, 100])!;
    expect(t.p).toBeGreaterThan(0.3);
    expect(t.ci!.low).toBeLessThan(1);
    expect(t.ci!.high).toBeGreaterThan(1);
  });

  it("says when the sample sizes cannot reach significance", () => {
    const t = mannWhitney([1, 2, 3], [4, 5, 6])!;
    expect(t.minP).toBeCloseTo(0.1);
    expect(t.ci).toBeUndefined();
  });
});

describe("twoSpeedCut", () => {
  it("cuts in the largest step of at least 1.5x with two forks on each side", () => {
    expect(twoSpeedCut([5, 5.2, 8.1, 8.3, 5.1, 8.0])).toBeCloseTo(Math.sqrt(5.2 * 8.0), 9);
    expect(twoSpeedCut([10, 11, 400, 12, 390])).toBeCloseTo(Math.sqrt(12 * 390), 9);
  });

  it("sees no second speed in a spread, one outlier, or failed forks", () => {
    expect(twoSpeedCut([100, 104, 97, 101, 99, 350, 102, 98, 103])).toBeUndefined();
    expect(twoSpeedCut([100, 120, 140, 160, 180])).toBeUndefined();
    expect(twoSpeedCut([100, Number.NaN, 101, Number.NaN])).toBeUndefined();
  });
});

describe("benjaminiHochberg", () => {
  it("keeps a lone p of 0.03 among 200 tests from counting, and strong ones that do", () => {
    const nulls = Array.from({ length: 199 }, (_, i) => 0.05 + (0.95 * i) / 199);
    expect(benjaminiHochberg([0.03, ...nulls], 0.05)).toBe(-1);
    // Ten cases at 4e-5 (9 forks against 9, all apart) pass 10/210 · 0.05 ≈ 0.0024.
    const cut = benjaminiHochberg([...Array(10).fill(4e-5), 0.03, ...nulls], 0.05);
    expect(cut).toBe(4e-5);
  });

  it("is the textbook step-up rule", () => {
    // p(k) ≤ k/m · q: 0.01 ≤ 1/4·0.1, 0.04 ≤ 2/4·0.1, 0.06 ≤ 3/4·0.1; 0.5 is not ≤ 0.1.
    expect(benjaminiHochberg([0.5, 0.06, 0.01, 0.04], 0.1)).toBe(0.06);
  });
});

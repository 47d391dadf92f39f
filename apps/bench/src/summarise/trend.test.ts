import { describe, expect, it } from "vitest";
import { GROWTH_BYTES, GROWTH_SLOPE, MIN_TREND_SAMPLES, type SoakSeries } from "../model/soak.js";
import { keepsGrowing, rssRise, rssSlope, soakRow } from "./trend.js";

const MIB = 1024 * 1024;

/** A series sampled every 100 ms for `seconds`, RSS = f(ms). */
function series(
  seconds: number,
  f: (ms: number) => number,
  extra: Partial<SoakSeries> = {},
): SoakSeries {
  const rss: [number, number][] = [];
  for (let t = 0; t <= seconds * 1000; t += 100) rss.push([t, f(t)]);
  return {
    rss,
    roundRss: [],
    gcPauses: [1, 2, 3],
    ops: 1000,
    elapsedMs: seconds * 1000,
    roundMs: [],
    maxRssBefore: 0,
    maxRss: 0,
    rssAfterGc: 0,
    ...extra,
  };
}

describe("rssSlope", () => {
  it("gives MiB per minute of a linear series, from a start time on", () => {
    const s = series(20, (t) => 100 * MIB + (t / 60_000) * 30 * MIB);
    expect(rssSlope(s.rss, 0)).toBeCloseTo(30, 6);
    expect(rssSlope(s.rss, 10_000)).toBeCloseTo(30, 6);
    expect(rssSlope(s.rss.slice(0, 2), 0)).toBeNaN();
  });
});

describe("the growth rule", () => {
  it("needs both a steep second half and a large rise", () => {
    expect(keepsGrowing(GROWTH_SLOPE + 1, GROWTH_BYTES + 1)).toBe(true);
    expect(keepsGrowing(GROWTH_SLOPE - 1, 10 * GROWTH_BYTES)).toBe(false);
    expect(keepsGrowing(10 * GROWTH_SLOPE, GROWTH_BYTES - 1)).toBe(false);
  });

  it("measures the rise between medians of thirds, not single samples", () => {
    // Flat at 200 MiB with one 300 MiB spike in every window: no rise.
    const spiky: [number, number][] = Array.from({ length: 30 }, (_, i) => [
      i * 100,
      (i % 10 === 9 ? 500 : 200) * MIB,
    ]);
    expect(rssRise(spiky, 0)).toBe(0);
    const ramp: [number, number][] = Array.from({ length: 31 }, (_, i) => [i * 100, i * MIB]);
    expect(rssRise(ramp, 0)).toBe(20 * MIB); // medians of [0, 10] and [20, 30]
    expect(rssRise(ramp, 2900)).toBeNaN();
    // Uneven times (a slow first round): both thirds still have samples.
    const uneven: [number, number][] = [
      [0, 0],
      ...Array.from({ length: 8 }, (_, i): [number, number] => [5000 + i * 100, (i + 1) * MIB]),
    ];
    expect(rssRise(uneven, 0)).toBe(6 * MIB); // medians of [0, 1, 2] and [6, 7, 8] MiB
    expect(rssRise(uneven.slice(0, MIN_TREND_SAMPLES - 1), 0)).toBeNaN(); // too short to judge
  });

  it("flags a steady leak and not a heap that settles after warm-up", () => {
    // 100 MiB per ~6 s: #323's 20 rounds × 50 MB reaching GiBs.
    const leak = soakRow(
      "x",
      "native",
      "gossip",
      series(20, (t) => 150 * MIB + t * 20_000),
    );
    expect(leak.grows).toBe(true);
    // Rises fast for 3 s, then flat with a ±20 MiB saw-tooth.
    const settles = soakRow(
      "y",
      "js",
      "gossip",
      series(20, (t) => 80 * MIB + Math.min(t, 3000) * 40_000 + ((t / 100) % 2) * 20 * MIB),
    );
    expect(settles.grows).toBe(false);
    expect(settles.rssPeak).toBe(80 * MIB + 3000 * 40_000 + 20 * MIB);
  });

  it("does not flag a blob run whose last round happens to hold its garbage", () => {
    // Round ends alternate 220 / 350 MiB (finalizers' luck), the last one high.
    const roundRss: [number, number][] = Array.from({ length: 20 }, (_, r) => [
      (r + 1) * 500,
      (r % 2 === 1 ? 350 : 220) * MIB,
    ]);
    const s = series(10, () => 300 * MIB, { roundRss, roundMs: [500], ops: 20 });
    expect(soakRow("napi", "native", "big-blob", s).grows).toBe(false);
  });

  it("reads the big blob's trend at round ends, not in its saw-tooth", () => {
    // 100 ms samples swing by 130 MiB inside rounds; round ends climb 100 MiB per round.
    const roundRss: [number, number][] = Array.from({ length: 20 }, (_, r) => [
      (r + 1) * 500,
      200 * MIB + r * 100 * MIB,
    ]);
    const s = series(10, (t) => 200 * MIB + ((t / 100) % 5) * 26 * MIB, {
      roundRss,
      roundMs: Array.from({ length: 20 }, (_, r) => 400 + r),
      ops: 20,
    });
    const row = soakRow("napi", "native", "big-blob", {
      ...s,
      rss: [...s.rss.slice(0, -1), [10_000, 2100 * MIB]],
    });
    expect(row.grows).toBe(true);
    expect(row.slopeSecondHalf).toBeGreaterThan(1000);
    expect(row.roundMedianMs).toBeCloseTo(409.5, 6);
    expect(row.roundMaxMs).toBe(419);
    expect(row.rssRounds).toEqual(roundRss.map(([, b]) => b));
  });

  it("counts the getrusage peak only when it was reached under load", () => {
    const flat = (extra: Partial<SoakSeries>) =>
      soakRow(
        "z",
        "wasm",
        "gossip",
        series(5, () => 100 * MIB, extra),
      );
    expect(flat({ maxRssBefore: 300 * MIB, maxRss: 300 * MIB }).rssPeak).toBe(100 * MIB);
    expect(flat({ maxRssBefore: 120 * MIB, maxRss: 300 * MIB }).rssPeak).toBe(300 * MIB);
  });
});

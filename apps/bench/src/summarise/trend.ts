// The soak's trend statistics: from the RSS series one process reports, the figures of the
// run (slopes, rise, peaks, GC pauses) and whether its RSS keeps growing by the rule in
// model/soak.ts.
import { linearRegression, quantile } from "simple-statistics";
import {
  GROWTH_BYTES,
  GROWTH_SLOPE,
  MIB,
  MIN_TREND_SAMPLES,
  type SoakRow,
  type SoakSeries,
  type SoakTask,
  WARMUP_FRACTION,
} from "../model/soak.js";
import { medianOf } from "./stats.js";

/** Least-squares slope of RSS over [fromMs, toMs], MiB per minute (NaN with < 3 samples). */
export function rssSlope(
  rss: readonly (readonly [number, number])[],
  fromMs: number,
  toMs = Number.POSITIVE_INFINITY,
): number {
  const pts = rss.filter(([t]) => t >= fromMs && t <= toMs).map(([t, b]) => [t / 60_000, b / MIB]);
  if (pts.length < 3) return Number.NaN;
  return linearRegression(pts).m;
}

/** Whether a run's RSS keeps growing by the rule above. */
export function keepsGrowing(secondHalfSlope: number, rise: number): boolean {
  return secondHalfSlope > GROWTH_SLOPE && rise > GROWTH_BYTES;
}

/**
 * Median RSS of the last third of the samples from `fromMs` on minus that of the first third
 * (bytes; thirds by count, so a run whose rounds are uneven in time still has both).
 */
export function rssRise(rss: readonly (readonly [number, number])[], fromMs: number): number {
  const after = rss.filter(([t]) => t >= fromMs).map(([, b]) => b);
  if (after.length < MIN_TREND_SAMPLES) return Number.NaN;
  const k = Math.ceil(after.length / 3);
  return medianOf(after.slice(-k)) - medianOf(after.slice(0, k));
}

/** Figures of one run from its raw series. */
export function soakRow(
  codec: string,
  runtime: string,
  scenario: SoakTask["scenario"],
  s: SoakSeries,
): SoakRow {
  // The big blob's trend is read at round ends (its 100 ms samples saw-tooth by ~130 MiB).
  const trend = s.roundRss.length > 0 ? s.roundRss : s.rss;
  const rssAt = (ms: number) => trend.find(([t]) => t >= ms)?.[1] ?? trend[trend.length - 1]![1];
  const warmMs = s.elapsedMs * WARMUP_FRACTION;
  const rssWarm = rssAt(warmMs);
  const rssEnd = s.rss[s.rss.length - 1]![1];
  const slopeSecondHalf = rssSlope(trend, s.elapsedMs / 2);
  const rise = rssRise(trend, warmMs);
  const sortedRounds = [...s.roundMs].sort((a, b) => a - b);
  return {
    codec,
    runtime,
    scenario,
    ops: s.ops,
    opsPerSec: (s.ops / s.elapsedMs) * 1000,
    durationMs: s.elapsedMs,
    rssStart: s.rss[0]![1],
    rssWarm,
    // The getrusage peak counts only if it was reached under load, not while loading.
    rssPeak: Math.max(s.maxRss > s.maxRssBefore ? s.maxRss : 0, ...s.rss.map(([, b]) => b)),
    rssEnd,
    rssAfterGc: s.rssAfterGc,
    slope: rssSlope(trend, warmMs),
    slopeSecondHalf,
    gcCount: s.gcPauses.length,
    gcP99: s.gcPauses.length > 0 ? quantile([...s.gcPauses], 0.99) : 0,
    gcMax: s.gcPauses.length > 0 ? Math.max(...s.gcPauses) : 0,
    ...(sortedRounds.length > 0 && {
      roundMedianMs: quantile(sortedRounds, 0.5),
      roundMaxMs: sortedRounds[sortedRounds.length - 1]!,
      rssRounds: s.roundRss.map(([, b]) => b),
    }),
    rssRise: rise,
    grows: keepsGrowing(slopeSecondHalf, rise),
  };
}

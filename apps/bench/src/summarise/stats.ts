// The statistics behind every interval the bench prints, in the manner of Go's benchstat.
//
// The unit of analysis is the fork (a fresh process), not the batch: batches inside one
// process share JIT state, heap layout and the allocator's history, so they are not
// independent, and an interval over batches would be far too narrow (Kalibera & Jones;
// JMH's forks). Each fork gives one number per case, its median batch time.
//
// Forks are not normal: on a shared 2-core VM one process in five can run a case several
// times slower for its whole life (page-fault and finalizer luck, a neighbour's burst), so
// means and t intervals would be dragged by one fork. Hence medians and rank methods:
// - a case's estimate is the median of its fork medians, with the distribution-free
//   interval of a median (order statistics; binomial coverage);
// - a ratio between two codecs is the median of per-fork ratios (both timed in the same
//   fork's interleaved turns), with the same interval;
// - two runs are compared with the Mann–Whitney U test on their fork medians, and the
//   change is the Hodges–Lehmann shift of the logs with its Moses interval; a run compares
//   hundreds of cases at once, so which changes count is decided by Benjamini–Hochberg.
// The interval of a median and of a paired ratio are @snappykit/auto's: its calibrator
// derives thresholds from them, and the sweep's must agree with it.
import { medianEstimate, pairedRatio } from "@snappykit/auto";
import { median } from "simple-statistics";
import { ALPHA, type Interval } from "../model/estimate.js";

export { medianEstimate, pairedRatio };

/** Median of a non-empty list. */
export function medianOf(xs: readonly number[]): number {
  return median([...xs]);
}

/**
 * Number of ways each value of U arises for sizes m and n, all orderings equally likely
 * (no ties): the exact null distribution of the Mann–Whitney U statistic, by the
 * recurrence f(m, n, u) = f(m − 1, n, u − n) + f(m, n − 1, u).
 */
export function uCounts(m: number, n: number): number[] {
  // table[j][u] holds f(i, j, u) for the current i.
  let prev: number[][] = Array.from({ length: n + 1 }, () => [1]);
  for (let i = 1; i <= m; i++) {
    const cur: number[][] = [[1]];
    for (let j = 1; j <= n; j++) {
      const size = i * j + 1;
      const row = new Array<number>(size).fill(0);
      const left = cur[j - 1]!; // f(i, j − 1, ·)
      const up = prev[j]!; // f(i − 1, j, ·)
      for (let u = 0; u < size; u++) row[u] = (left[u] ?? 0) + (u >= j ? (up[u - j] ?? 0) : 0);
      cur.push(row);
    }
    prev = cur;
  }
  return prev[n]!;
}

/** P(U ≤ u) under the null, for sizes m and n. */
function uCdf(counts: readonly number[], u: number): number {
  const total = counts.reduce((a, c) => a + c, 0);
  let sum = 0;
  for (let i = 0; i <= u && i < counts.length; i++) sum += counts[i]!;
  return sum / total;
}

/** What the Mann–Whitney comparison of two samples found. */
export interface ShiftTest {
  /** Two-sided exact p-value (midranks for ties, exact no-tie null distribution). */
  readonly p: number;
  /** The smallest p-value these sample sizes can give: above α, no test is possible. */
  readonly minP: number;
  /** Hodges–Lehmann estimate of current / baseline (exp of the median log difference). */
  readonly ratio: number;
  /** Moses interval of that ratio, at the reachable level closest to `1 − α` from above. */
  readonly ci?: Interval;
}

/** The fork medians that hold a time (failed forks are NaN). */
export const timedValues = (xs: readonly number[]) => xs.filter((x) => x > 0 && Number.isFinite(x));

/**
 * Compare two independent samples of positive values (fork medians of two runs). Rank
 * based, so one fork's outlier moves it by one rank, not by its size.
 */
export function mannWhitney(
  baseline: readonly number[],
  current: readonly number[],
  alpha = ALPHA,
): ShiftTest | undefined {
  const a = timedValues(baseline).map(Math.log);
  const b = timedValues(current).map(Math.log);
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return undefined;
  // U for b: pairs where b beats a (counting ties as a half).
  let u = 0;
  const diffs: number[] = [];
  for (const x of a) {
    for (const y of b) {
      u += y > x ? 1 : y === x ? 0.5 : 0;
      diffs.push(y - x);
    }
  }
  diffs.sort((x, y) => x - y);
  const counts = uCounts(m, n);
  const lower = Math.min(u, m * n - u);
  const p = Math.min(1, 2 * uCdf(counts, Math.floor(lower)));
  const minP = Math.min(1, 2 * uCdf(counts, 0));
  // Moses: the interval runs from the (c+1)-th to the (mn−c)-th ordered difference, c the
  // largest count with 2·P(U ≤ c − 1)… i.e. P(U < c + 1) ≤ α/2.
  let c = -1;
  while (c + 1 < (m * n) / 2 && uCdf(counts, c + 1) <= alpha / 2) c++;
  const ratio = Math.exp(median(diffs));
  if (c < 0) return { p, minP, ratio };
  return {
    p,
    minP,
    ratio,
    ci: {
      low: Math.exp(diffs[c]!),
      high: Math.exp(diffs[m * n - 1 - c]!),
      level: 1 - 2 * uCdf(counts, c),
    },
  };
}

/**
 * Where fork medians split into two speeds: in sorted order, the largest step between
 * neighbours of at least `jump`× with at least `minSide` forks on each side (its geometric
 * middle); undefined when there is none. One outlying fork is not a second speed: the median
 * already ignores it.
 */
export function twoSpeedCut(xs: readonly number[], jump = 1.5, minSide = 2): number | undefined {
  const v = timedValues(xs).sort((a, b) => a - b);
  let at = -1;
  let step = jump;
  for (let i = minSide; i <= v.length - minSide; i++) {
    if (v[i]! / v[i - 1]! >= step) {
      step = v[i]! / v[i - 1]!;
      at = i;
    }
  }
  return at < 0 ? undefined : Math.sqrt(v[at]! * v[at - 1]!);
}

/**
 * The Benjamini–Hochberg cut-off for `pValues` at false-discovery rate `q`: the largest
 * p(k) with p(k) ≤ k/m · q (−1 when none qualifies). Tests with p ≤ the cut-off are the
 * discoveries; among them, the expected share of false ones is at most q.
 */
export function benjaminiHochberg(pValues: readonly number[], q: number): number {
  const sorted = [...pValues].sort((a, b) => a - b);
  let cut = -1;
  sorted.forEach((p, i) => {
    if (p <= ((i + 1) / sorted.length) * q) cut = p;
  });
  return cut;
}

/** Whether an interval of a ratio lies wholly above (1) or below (−1) one, else 0. */
export function sideOfOne(ci: Interval | undefined): -1 | 0 | 1 {
  if (!ci) return 0;
  if (ci.low > 1) return 1;
  if (ci.high < 1) return -1;
  return 0;
}

/** A ratio as a change in percent: 1.2 → +20. */
export const ratioToPercent = (ratio: number) => (ratio - 1) * 100;

/** An interval of a ratio as an interval of the change in percent. */
export function percentInterval(ci: Interval): Interval {
  return { low: ratioToPercent(ci.low), high: ratioToPercent(ci.high), level: ci.level };
}

/** Half the interval's width in percent of the estimate, for "p50 ± x %". */
export function halfWidthPercent(e: { value: number; ci?: Interval }): number | undefined {
  if (!e.ci) return undefined;
  return ((e.ci.high - e.ci.low) / 2 / e.value) * 100;
}

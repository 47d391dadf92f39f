// Where two codecs' cost curves cross, for the calibrator (measure.ts) and the bench's sweep.
// Both give, per size, the paired ratio a / b of their times (median and interval); this
// finds the size where it passes 1.
//
// - Interpolation: linear in log size and log ratio between the two sweep points around
//   the crossing (both costs grow roughly as powers of the size there).
// - Which crossing: noise near a tie can make the ratio cross 1 more than once. The
//   crossover is the single threshold "one codec is faster below, the other above" that
//   agrees (by p50) with the most sweep points; ties go to the smaller size. When "the
//   same codec is faster everywhere" agrees with strictly more points, the answer is
//   "never in range".
// - Uncertainty: the same interpolation applied to the interval bounds of the ratio.
//   Below `ci.low`, the codec faster at small sizes is faster with the interval clear of
//   1; above `ci.high`, the other one is. Between them the data cannot tell the two apart.
//   A bound is null when it lies outside the swept range (below the smallest size, or
//   beyond the largest). Its level is the pointwise level of the ratio intervals, not a
//   joint one.

/** A two-sided confidence interval, in the unit of the estimate it belongs to. */
export interface Interval {
  readonly low: number;
  readonly high: number;
  /** The coverage actually reached (order statistics give discrete levels). */
  readonly level: number;
}

/** An estimate with its interval; `n` is how many independent runs it rests on. */
export interface Estimate {
  readonly value: number;
  /** Undefined with fewer than two runs: one says nothing about the next. */
  readonly ci?: Interval;
  readonly n: number;
}

/** P(X ≤ k) for X ~ Binomial(n, ½). */
function binomialHalfCdf(n: number, k: number): number {
  let pmf = 0.5 ** n;
  let sum = 0;
  for (let i = 0; i <= k && i <= n; i++) {
    sum += pmf;
    pmf = (pmf * (n - i)) / (i + 1);
  }
  return Math.min(1, sum);
}

/**
 * The median of `xs` and its distribution-free interval [x(k), x(n−k+1)], with the largest
 * k whose coverage 1 − 2·P(Bin(n, ½) ≤ k − 1) still reaches `level`. With too few values
 * for `level` (fewer than 6 for 95 %) the interval is [min, max] and says the level it has.
 */
export function medianEstimate(xs: readonly number[], level = 0.95): Estimate {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return { value: Number.NaN, n: 0 };
  const value = n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  if (n < 2) return { value, n };
  let k = 1;
  while (k + 1 <= n / 2 && 1 - 2 * binomialHalfCdf(n, k) >= level) k++;
  return {
    value,
    ci: { low: s[k - 1]!, high: s[n - k]!, level: 1 - 2 * binomialHalfCdf(n, k - 1) },
    n,
  };
}

/**
 * The ratio a / b from paired per-fork values (both measured in the same fork's turns, so
 * a slow spell of the machine hits both): the median per-fork ratio and its interval.
 */
export function pairedRatio(a: readonly number[], b: readonly number[], level = 0.95): Estimate {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i]! > 0 && b[i]! > 0) ratios.push(a[i]! / b[i]!);
  }
  return medianEstimate(ratios, level);
}

/** One sweep size: the ratio a / b of two codecs' times, with its interval. */
export interface RatioPoint {
  readonly size: number;
  readonly ratio: number;
  readonly low?: number;
  readonly high?: number;
  readonly level?: number;
}

/** Interval of a crossover size; a null bound lies outside the swept range. */
export interface CrossoverInterval {
  readonly low: number | null;
  readonly high: number | null;
  readonly level: number;
}

/** Where a / b passes 1, or why it does not. */
export interface CrossingResult {
  /** Interpolated size in bytes; null when one side is faster (by p50) across the range. */
  readonly size: number | null;
  readonly ci: CrossoverInterval | null;
  /** "a" or "b": the side faster below the crossover (or everywhere, when size is null). */
  readonly fasterBelow: "a" | "b";
  /** How many times the p50 ratio crosses 1 in the range (more than one: noise or a real wiggle). */
  readonly crossings: number;
  /** Set when size is null. */
  readonly reason?: string;
}

/** The x positions where the piecewise-linear y(x) passes through zero (touching counts once). */
export function zeroCrossings(xs: readonly number[], ys: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < xs.length; i++) {
    const [y0, y1] = [ys[i]!, ys[i + 1]!];
    if (y0 === 0 && i === 0) out.push(xs[0]!);
    if (y1 === 0) {
      out.push(xs[i + 1]!);
    } else if (y0 !== 0 && Math.sign(y0) !== Math.sign(y1)) {
      out.push(xs[i]! + ((0 - y0) * (xs[i + 1]! - xs[i]!)) / (y1 - y0));
    }
  }
  return out;
}

/**
 * Find the crossover of `points` (sorted or not; sizes must be distinct and positive).
 * @param range Words for the swept range in "never in range" reasons, e.g. "64 B–4 MiB".
 */
export function findCrossover(
  points: readonly RatioPoint[],
  names: { a: string; b: string },
  range: string,
): CrossingResult {
  const ps = [...points]
    .filter((p) => p.ratio > 0 && Number.isFinite(p.ratio))
    .sort((p, q) => p.size - q.size);
  if (ps.length === 0) {
    return { size: null, ci: null, fasterBelow: "a", crossings: 0, reason: "no data" };
  }
  const xs = ps.map((p) => Math.log2(p.size));
  const ys = ps.map((p) => Math.log(p.ratio));
  const crossings = zeroCrossings(xs, ys);
  // Score every candidate threshold: points that agree with "a below, b above" (y < 0
  // before, y > 0 after) or with the reverse.
  const agree = (t: number, aBelow: boolean) =>
    xs.filter((x, i) => {
      const y = ys[i]!;
      if (y === 0) return true;
      const aFaster = y < 0;
      return x < t ? aFaster === aBelow : x > t ? aFaster !== aBelow : true;
    }).length;
  let best: { t: number; aBelow: boolean; score: number } | undefined;
  for (const t of crossings) {
    for (const aBelow of [true, false]) {
      const score = agree(t, aBelow);
      if (!best || score > best.score) best = { t, aBelow, score };
    }
  }
  const aEverywhere = ys.filter((y) => y <= 0).length;
  const bEverywhere = ys.filter((y) => y >= 0).length;
  const everywhere = Math.max(aEverywhere, bEverywhere);
  if (!best || everywhere > best.score) {
    const side = aEverywhere >= bEverywhere ? "a" : "b";
    const name = side === "a" ? names.a : names.b;
    const other = side === "a" ? names.b : names.a;
    const where =
      (side === "a" ? aEverywhere : bEverywhere) === ps.length ? "at every size" : "at most sizes";
    return {
      size: null,
      ci: null,
      fasterBelow: side,
      crossings: crossings.length,
      reason: `never in range: ${name} is faster than ${other} ${where} of ${range} (p50)`,
    };
  }
  const x0 = best.t;
  // Orient so that y < 0 means "the side faster below is faster": then the ratio's upper
  // bound reaches 0 first (left bound) and its lower bound last (right bound).
  const sign = best.aBelow ? 1 : -1;
  const withCi = ps.every((p) => p.low !== undefined && p.high !== undefined);
  let ci: CrossoverInterval | null = null;
  if (withCi) {
    const upper = ps.map((p) => sign * Math.log(best.aBelow ? p.high! : p.low!));
    const lower = ps.map((p) => sign * Math.log(best.aBelow ? p.low! : p.high!));
    const left = zeroCrossings(xs, upper).filter((x) => x <= x0);
    const right = zeroCrossings(xs, lower).filter((x) => x >= x0);
    // At x0 itself the upper bound is ≥ 0 and the lower ≤ 0 (interpolation keeps order).
    const lowX = left.length > 0 ? left[left.length - 1]! : null;
    const highX = right.length > 0 ? right[0]! : null;
    ci = {
      low: lowX === null ? null : 2 ** lowX,
      high: highX === null ? null : 2 ** highX,
      level: Math.min(...ps.map((p) => p.level ?? Number.NaN)),
    };
  }
  return { size: 2 ** x0, ci, fasterBelow: best.aBelow ? "a" : "b", crossings: crossings.length };
}

// What every figure carries: an estimate over forks and its interval (summarise/stats.ts
// computes them), and the levels the bench aims for.

/** Confidence level the intervals aim for; one from fewer forks says what it reaches. */
export const LEVEL = 0.95;

/** Significance level of `--compare` (two-sided), as a false-discovery rate over all cases. */
export const ALPHA = 0.05;

/** A two-sided confidence interval, in the unit of the estimate it belongs to. */
export interface Interval {
  readonly low: number;
  readonly high: number;
  /** The coverage actually reached (order statistics give discrete levels). */
  readonly level: number;
}

/** An estimate with its interval; `n` is how many forks it rests on. */
export interface Estimate {
  readonly value: number;
  /** Undefined with fewer than two forks: one process says nothing about the next. */
  readonly ci?: Interval;
  readonly n: number;
}

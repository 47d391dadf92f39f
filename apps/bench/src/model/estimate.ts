// What every figure carries: an estimate over forks and its interval (summarise/stats.ts
// computes them), and the levels the bench aims for.

/** Confidence level the intervals aim for; one from fewer forks says what it reaches. */
export const LEVEL = 0.95;

/** Significance level of `--compare` (two-sided), as a false-discovery rate over all cases. */
export const ALPHA = 0.05;

// The interval types are @snappykit/auto's, whose calibrator computes the same figures.
export type { Estimate, Interval } from "@snappykit/auto";

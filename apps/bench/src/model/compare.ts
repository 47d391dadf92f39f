// `--compare`'s part of the report, and its defaults (summarise/compare.ts has the method).
import type { Interval } from "./estimate.js";

/**
 * Default noise threshold, in percent: a detected change smaller than this is "within
 * noise". Two back-to-back runs of one commit on the idle 2-core VM moved by 3 % overall
 * and gossip rows by 5–12 %, every fork alike (the machine, not the code).
 */
export const DEFAULT_THRESHOLD_PERCENT = 10;

/** Payloads whose mean item is at least this big count as block-sized (the drift summary). */
export const BLOCK_SIZED_BYTES = 32 * 1024;

/** One matched case. `change` and `ci` are percent of the baseline (positive: slower). */
export interface ComparisonEntry {
  readonly key: string;
  readonly codec: string;
  readonly impl: string;
  readonly payload: string;
  readonly op: string;
  readonly baseP50: number;
  readonly p50: number;
  readonly change: number;
  readonly ci?: Interval;
  /** The test's two-sided p-value. */
  readonly p: number;
  readonly significant: boolean;
  /**
   * "within noise": the test sees a change, but smaller than the noise threshold, the
   * size two runs of one commit already differ by here (Criterion's "change within noise
   * threshold").
   */
  readonly verdict: "slower" | "faster" | "within noise" | "no significant change";
  /**
   * Present when a run's forks ran at one of two speeds (see summarise/compare.ts): the test and
   * `change` then cover only the forks faster than `cut` (ns per op) in each run, and the
   * slow ones are counted here, not tested.
   */
  readonly twoSpeeds?: {
    readonly cut: number;
    readonly baseSlow: number;
    readonly baseForks: number;
    readonly slow: number;
    readonly forks: number;
  };
}

/** How the comparison was made, and what it could not compare. */
export interface ComparisonInfo {
  readonly baseline: string;
  readonly baselineDate: string;
  readonly thresholdPercent: number;
  readonly method: string;
  /** Differences between the two runs that make their numbers less comparable. */
  readonly warnings: readonly string[];
  readonly skipped: readonly { readonly key: string; readonly reason: string }[];
  /**
   * How far the ratio to the reference moved between the runs on block-sized payloads
   * (mean item ≥ 32 KiB), the figure least touched by the machine's drift.
   */
  readonly relativeDrift?: {
    readonly cases: number;
    readonly within10Percent: number;
    readonly medianPercent: number;
  };
  /**
   * The median `change` over every compared case: when most cases moved together, this is
   * the machine running faster or slower in one run's minutes (on this VM, up to ~3 %
   * overall and ~10 % on the thread-pool rows), not the code.
   */
  readonly medianChangePercent?: number;
}

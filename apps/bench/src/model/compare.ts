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

/** What a test of a change says, after the false-discovery control and the noise threshold. */
export type Verdict = "slower" | "faster" | "within noise" | "no significant change";

/** One test of how a figure changed between two runs. `change` and `ci` are percent of the baseline (positive: slower). */
export interface ChangeTest {
  readonly change: number;
  readonly ci?: Interval;
  /** The test's two-sided p-value. */
  readonly p: number;
  /** Whether the forks compared could reach p ≤ α at all (with 3 against 3 they cannot). */
  readonly testable: boolean;
  /** Detected after Benjamini–Hochberg over its family of tests, and beyond the noise threshold. */
  readonly significant: boolean;
  /**
   * "within noise": the test sees a change, but smaller than the noise threshold, the
   * size two runs of one commit already differ by here (Criterion's "change within noise
   * threshold").
   */
  readonly verdict: Verdict;
}

/**
 * The change of a case's time as a multiple of the reference's, each fork's ratio taken in
 * that fork's own turns: a whole run's machine offset (2–5 % on every block row between two
 * runs here, ~10 % on thread-pool rows) cancels, a change of the codec itself does not.
 */
export interface RatioChange extends ChangeTest {
  /** The reference codec, or for its own rows `OTHERS` (summarise/compare.ts). */
  readonly reference: string;
  /** The median per-fork ratio in the baseline and in this run. */
  readonly base: number;
  readonly current: number;
}

/** One matched case. */
export interface ComparisonEntry {
  readonly key: string;
  readonly codec: string;
  readonly impl: string;
  readonly payload: string;
  readonly op: string;
  readonly baseP50: number;
  readonly p50: number;
  /** The change of the time itself (Mann–Whitney on the fork medians). */
  readonly absolute: ChangeTest;
  /**
   * The change of its ratio to the reference; absent for the reference codec's own cases
   * and where the reference did not time the row in both runs.
   */
  readonly ratio?: RatioChange;
  /**
   * Which test the verdict is: the ratio's for every case that has one (to the reference, or
   * for the reference's own rows to the row's other codecs, `ratio.reference` says which);
   * rows with nothing to divide by are judged on their absolute times, which carry the
   * machine's whole-run offset.
   */
  readonly judgedBy: "ratio" | "absolute";
  readonly significant: boolean;
  readonly verdict: Verdict;
  /**
   * Present when a run's forks ran at one of two speeds (see summarise/compare.ts): the tests
   * then cover only the forks faster than `cut` (ns per op) in each run, and the slow ones
   * are counted here, not tested.
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
  /** Cases whose judged test could reach significance at all, of the cases compared. */
  readonly testable: number;
  /** Forks a side the test needs before it can find anything (4 at α = 5 %). */
  readonly forksToTest: number;
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

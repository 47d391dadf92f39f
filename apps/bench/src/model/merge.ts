// merge.json: several payload runs side by side (`pnpm bench merge a.json b.json …`),
// each a column group labelled from its report's environment: per case the time and the
// ratio to that run's reference, the codec's rank in its row, and whether the runs agree on
// how the codecs of the row order (summarise/merge.ts).
import type { Interval } from "./estimate.js";

/** Bumped when merge.json's shape changes incompatibly. */
export const MERGE_SCHEMA = 1;

/** One merged run: where it came from and what ran it. */
export interface MergedRun {
  /** "Node 24.21.0 · Linux x64 · AMD EPYC × 2": runtime, system and CPU (made unique). */
  readonly label: string;
  readonly file: string;
  readonly command: string;
  readonly date: string;
  readonly commit: string | null;
  readonly runtime: { readonly name: string; readonly version: string };
  readonly machine: string;
  readonly reference: string;
  readonly mode: string;
  readonly forks: number;
}

/** One case in one run. */
export interface MergedCell {
  /** Median of the fork medians, ns per op, with its interval. */
  readonly p50: number;
  readonly ci?: Interval;
  /** Time ÷ that run's reference, per fork, and its interval. */
  readonly ratio?: number;
  readonly ratioCi?: Interval;
  /** 1 = fastest of the row by p50 in that run. */
  readonly rank: number;
  /** Tied for fastest in that run (the run's own judgement). */
  readonly fastest: boolean;
}

/** One codec × payload × op across the runs (null: not timed in that run). */
export interface MergedCase {
  readonly codec: string;
  readonly payload: string;
  readonly op: string;
  readonly cells: readonly (MergedCell | null)[];
  /**
   * The runs agree on this codec's place: no other codec of the row is clearly faster than
   * it in one run and clearly slower in another (paired per-fork ratios, interval clear of 1).
   */
  readonly agrees: boolean;
  /** The codecs it swaps places with, where it does not agree. */
  readonly swapsWith: readonly string[];
}

/** merge.json. */
export interface MergeReport {
  readonly schema: typeof MERGE_SCHEMA;
  readonly command: string;
  /** When the merge was made. */
  readonly date: string;
  readonly runs: readonly MergedRun[];
  readonly cases: readonly MergedCase[];
  /** How `agrees` is decided, in words. */
  readonly method: string;
}

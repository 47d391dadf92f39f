// How long and how hard each case is timed, and what the timing gives back: the settings
// (full and quick defaults) and the measurements the forks collect before summarise/ turns
// them into figures. measure/ does the timing.
import type { TargetSpec } from "./case.js";

/** How long and how hard to time each case. */
export interface TimingOptions {
  /**
   * Fresh processes each case is timed in (JMH's forks); 0 times everything in the bench's
   * own process, once, with no interval (for debugging the harness).
   */
  readonly forks: number;
  /**
   * Up to this many more forks for the rows whose ratios are still wider than
   * `targetWidthPercent` (measure/schedule.ts), while the timing has run less than `budgetMs`.
   */
  readonly extraForks: number;
  /** Half-width of a ratio's interval, in percent, that needs no more forks. */
  readonly targetWidthPercent: number;
  /** No extra fork starts after the timing has run this long. */
  readonly budgetMs: number;
  /** Untimed warm-up per case and fork (JIT tier-up, wasm compilation); sizes the batch. */
  readonly warmupMs: number;
  /** Timed budget per case and fork (its batches' time on the batch clock, yields excluded). */
  readonly timeMs: number;
  /** At least this many batches per case and fork. */
  readonly minSamples: number;
  /**
   * A case's turn in the row's round-robin: batches until this much time has passed (at
   * least one batch). Short turns interleave the codecs of a row finely, so a slow spell
   * of the machine lands on all of them.
   */
  readonly sliceMs: number;
  /** Aim for batches this long: long enough to time, short enough for many samples. */
  readonly batchMs: number;
  /** Cap on the bytes a batch writes, so no backend accumulates unfreed output. */
  readonly batchMaxBytes: number;
  /** Single ops measured for allocation (the median is reported), in the first fork. */
  readonly allocationRuns: number;
  /**
   * What a batch is timed with: `wall` (performance.now) or `cpu` (process CPU time, all
   * threads: immune to waiting for a core on a loaded machine, but blind to idle waits).
   * Async ops are always timed on the wall clock: their cost is latency.
   */
  readonly clock: Clock;
}

/** The clock batches are timed with. */
export type Clock = "wall" | "cpu";

/**
 * Defaults of a full run: 9 forks, the fewest whose median interval can leave out one
 * outlying fork on each side at 95 % ([2nd, 8th] of 9 covers 96 %), then up to 12 more for
 * rows whose ratios are still wider than ±5 % (bimodal processes: some forks run a large
 * payload 1.3–2× slower for their whole life), within a 5.5-minute timing budget, so the
 * whole run stays under 8 minutes on 2 cores.
 */
export const FULL_TIMING: TimingOptions = {
  forks: 9,
  extraForks: 12,
  targetWidthPercent: 5,
  budgetMs: 330_000,
  warmupMs: 20,
  timeMs: 64,
  minSamples: 8,
  sliceMs: 8,
  batchMs: 2,
  batchMaxBytes: 4 << 20,
  allocationRuns: 5,
  clock: "wall",
};

/** `--quick`: the same matrix, fewer and shorter forks (CI smoke run, ≤ 90 s). */
export const QUICK_TIMING: TimingOptions = {
  ...FULL_TIMING,
  forks: 3,
  extraForks: 0,
  budgetMs: 60_000,
  warmupMs: 5,
  timeMs: 10,
  minSamples: 3,
  sliceMs: 4,
  batchMs: 1,
  allocationRuns: 3,
};

/**
 * What one turn of a case gives back: nothing until the fork has all of the case's batches,
 * then every batch's ns per op (in no particular order).
 */
export type Turn = { readonly done: false } | { readonly done: true; readonly samples: number[] };

/** Bytes allocated by one op: JS heap (V8's heap statistics) and external backing stores. */
export interface Allocation {
  readonly heap: number;
  readonly external: number;
  /**
   * Peak external memory over one op on every item, the results held, above the level after
   * a full GC (ops with a `sampled` call only: measure/run.ts's peakExternal).
   */
  readonly peak?: number;
}

/** A target's case on one row. */
export interface PlannedCase {
  readonly spec: TargetSpec;
  readonly row: number;
}

/** Everything measured for one case over all forks. */
export interface CaseMeasurement {
  readonly spec: TargetSpec;
  readonly row: number;
  /** Median batch time (ns per op) of each fork, by fork index; NaN where the fork failed. */
  readonly forkMedians: number[];
  /** Every batch of every fork (ns per op), for percentiles. */
  readonly samples: number[];
  /** Ops per batch in the first fork that timed the case. */
  batch: number;
  alloc: Allocation;
  /** The peak external memory of each fork that measured it (the first PEAK_FORKS). */
  peaks: number[];
  /** Wall time spent on the case, all forks. */
  wallMs: number;
}

/** Live progress, once per case warm-up. */
export interface Progress {
  readonly fork: number;
  readonly forks: number;
  /** An adaptive extra fork (fork ≥ forks), for the rows still too uncertain. */
  readonly extra?: boolean;
  readonly index: number;
  readonly total: number;
  readonly label: string;
  readonly elapsedMs: number;
  /** Estimated time left; undefined at the start. */
  readonly etaMs: number | undefined;
}

// soak.json: memory under sustained load (`bench soak`, modes/soak.ts). What one soak process is
// asked to do and reports back (measure/soak-worker.ts), the figures of a run
// (summarise/trend.ts) and the growth rule they are judged by.

import type { TargetSpec } from "./case.js";
import type { Environment } from "./report.js";

/** Bytes in a MiB, the unit of the soak's figures. */
export const MIB = 1024 * 1024;

/** Bumped when soak.json's shape changes incompatibly. */
export const SOAK_SCHEMA = 1;

/** Settings of a full and a quick soak. */
export const FULL_SOAK = { seconds: 20, rounds: 20 } as const;
export const QUICK_SOAK = { seconds: 3, rounds: 5 } as const;

/** The big blob: 50 MiB, as in napi-rs/snappy #323. */
export const BLOB_BYTES = 50 * 1024 * 1024;

/**
 * One cycle of the gossip mix, messages per 100: a node subscribed to many subnets sees
 * mostly attestations and sync committee messages, an aggregate every few, a data column
 * now and then and a block once per slot.
 */
export const GOSSIP_MIX: readonly (readonly [string, number])[] = [
  ["single-attestation", 64],
  ["sync-committee-message", 20],
  ["aggregate-and-proof", 10],
  ["contribution-and-proof", 3],
  ["data-column-sidecar", 2],
  ["beacon-block", 1],
];

/** The first part of a run, excluded from the slope: heap sizing, JIT, first GCs. */
export const WARMUP_FRACTION = 0.2;

/**
 * The growth rule: a run's RSS "keeps growing" when, over the second half of the run, its
 * least-squares slope is above {@link GROWTH_SLOPE} MiB/min AND its rise — the median RSS of
 * the last third of the run after warm-up minus that of the first third — is above
 * {@link GROWTH_BYTES}. The slope alone flags a heap still sizing itself; medians of thirds,
 * not single samples, because a 50 MiB round leaves ~130 MiB of garbage that a late
 * sample may or may not still hold (with end-minus-warm-up samples, reruns flagged a
 * different native codec each time).
 */
export const GROWTH_SLOPE = 10;
export const GROWTH_BYTES = 64 * 1024 * 1024;

/**
 * Fewer samples after warm-up than this (the quick blob's 5 rounds) are not judged: rise
 * NaN (null in soak.json), `grows` false, "n/a" in the table. Three per third.
 */
export const MIN_TREND_SAMPLES = 9;

/** One codec × scenario in soak.json. RSS in bytes, slopes in MiB/min, GC pauses in ms. */
export interface SoakRow {
  readonly codec: string;
  readonly runtime: string;
  readonly scenario: SoakTask["scenario"];
  /** gossip: messages (one uncompress + one compress each); big blob: rounds. */
  readonly ops: number;
  readonly opsPerSec: number;
  readonly durationMs: number;
  /** RSS at the start of the load (target loaded, inputs read). */
  readonly rssStart: number;
  /** RSS at the end of the warm-up ({@link WARMUP_FRACTION} of the run). */
  readonly rssWarm: number;
  /** Median RSS of the last third after warm-up minus that of the first third (the rule's). */
  readonly rssRise: number;
  /** Highest RSS: the larger of the samples and the process's getrusage peak under load. */
  readonly rssPeak: number;
  readonly rssEnd: number;
  /** After two forced full GCs at the end: what the process could give back. */
  readonly rssAfterGc: number;
  /** Least-squares slope after the warm-up (big blob: of the RSS at round ends). */
  readonly slope: number;
  /** Least-squares slope over the second half (the growth rule's). */
  readonly slopeSecondHalf: number;
  readonly gcCount: number;
  readonly gcP99: number;
  readonly gcMax: number;
  /** big blob: median and slowest round (compress + uncompress of 50 MiB), ms. */
  readonly roundMedianMs?: number;
  readonly roundMaxMs?: number;
  /** big blob: RSS after each round (bytes), the series its slope is fitted to. */
  readonly rssRounds?: readonly number[];
  readonly grows: boolean;
}

/** soak.json. */
export interface SoakReport {
  readonly schema: number;
  readonly command: string;
  readonly mode: "full" | "quick";
  readonly durationMs: number;
  readonly environment: Environment;
  readonly gateReference: string;
  readonly settings: {
    readonly gossipSeconds: number;
    readonly blobRounds: number;
    readonly blobBytes: number;
    readonly blobData: string;
    readonly gossipMix: readonly (readonly [string, number])[];
    readonly sampleMs: number;
    readonly warmupFraction: number;
    readonly rule: string;
  };
  readonly rows: readonly SoakRow[];
  readonly failures: readonly {
    readonly codec: string;
    readonly scenario: string;
    readonly reason: string;
  }[];
}

/** The growth rule in words, for reports. */
export const RULE_TEXT =
  `grows = least-squares RSS slope over the second half of the run > ${GROWTH_SLOPE} MiB/min ` +
  `and rise > ${GROWTH_BYTES / MIB} MiB, the rise being the median RSS of the last third of ` +
  `the run after warm-up (the first ${WARMUP_FRACTION * 100} %) minus that of its first third; ` +
  `runs with fewer than ${MIN_TREND_SAMPLES} samples after warm-up are not judged (n/a)`;

/** What the soak runner (measure/soak-runner.ts) asks one child to do. */
export interface SoakTask {
  readonly spec: TargetSpec;
  readonly inputsDir: string;
  readonly scenario: "gossip" | "big-blob";
  /** gossip: run this long. */
  readonly seconds: number;
  /** big-blob: compress + uncompress rounds. */
  readonly rounds: number;
}

/**
 * Input rows the soak runner writes (measure/fork.ts writeInputs) for a scenario, one
 * folder each so a gossip process never holds the blob: the messages (or the blob) and the
 * gate reference's compressed form of each.
 */
export const SOAK_ROWS = { raw: 0, compressed: 1 } as const;

/** RSS sampling period. */
export const SAMPLE_MS = 100;

/** The raw series one child reports. */
export interface SoakSeries {
  /** [ms since start, RSS bytes], every {@link SAMPLE_MS}, first and last included. */
  readonly rss: readonly (readonly [number, number])[];
  /**
   * big-blob: [ms since start, RSS bytes] after each round's event-loop turn. A round
   * holds ~130 MiB for a moment, so the 100 ms samples saw-tooth; these are comparable.
   */
  readonly roundRss: readonly (readonly [number, number])[];
  /** Duration of every GC (ms), from PerformanceObserver "gc" entries. */
  readonly gcPauses: readonly number[];
  /** Messages (gossip: one uncompress + one compress each) or rounds (big blob). */
  readonly ops: number;
  readonly elapsedMs: number;
  /** big-blob: wall time of each round (compress + uncompress), ms. */
  readonly roundMs: readonly number[];
  /** Peak RSS of the process's life (getrusage maxrss), bytes: at the start and at the end. */
  readonly maxRssBefore: number;
  readonly maxRss: number;
  /** RSS after two full GCs with event-loop turns between, at the end (0 without --expose-gc). */
  readonly rssAfterGc: number;
}

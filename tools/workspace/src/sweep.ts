// sweep.json, the bench's size sweep (`pnpm bench sweep`), as its readers see it: the
// bench writes it, @snappykit/auto's thresholds script turns its ts/napi crossovers into the
// sizes auto routes by. One type for both, so neither reads a field the other never wrote.
import { readFileSync } from "node:fs";
import type { RunEnvironment } from "./environment.js";

/** Bumped when sweep.json's shape changes incompatibly. */
export const SWEEP_SCHEMA = 1;

/** The two byte streams each size is cut from: serialized blocks (compress ~1.8×), sidecars (~1.0×). */
export const SWEEP_SERIES = ["blocks", "sidecars"] as const;
/** The one stream of `bench sweep --data <file>`: the user's bytes. */
export const DATA_SERIES = "data";
/** One of {@link SWEEP_SERIES}, or {@link DATA_SERIES}. */
export type SweepSeriesName = (typeof SWEEP_SERIES)[number] | typeof DATA_SERIES;

/** A two-sided interval at the level it reaches. */
interface Interval {
  readonly low: number;
  readonly high: number;
  readonly level: number;
}

/** One codec × op × size. Times are per message of `size` bytes. */
export interface SweepPoint {
  readonly codec: string;
  readonly op: string;
  readonly size: number;
  /** Median of the fork medians, ns per message. */
  readonly p50: number;
  readonly ci?: Interval;
  /** size / p50, in MB/s (10⁶ bytes). */
  readonly mbps: number;
  readonly forks: number;
}

/** Which two curves a crossover compares. */
export type CrossoverKind = "js-vs-native" | "ts-vs-native" | "ts-vs-napi";

/** Interval of a crossover size; a null bound lies outside the swept range. */
export interface CrossoverInterval {
  readonly low: number | null;
  readonly high: number | null;
  readonly level: number;
}

/** Where two codecs' times cross for one op (the bench's crossover.ts has the method). */
export interface SweepCrossover {
  readonly op: string;
  readonly kind: CrossoverKind;
  /**
   * [a, b]: for "ts-vs-napi" exactly ["ts", "napi"]; for the envelope kinds the fastest of
   * each group at the sweep point just below the crossover (at the largest size when null).
   */
  readonly codecs: readonly [string, string];
  /** Interpolated size in bytes, or null ("never in range", see `reason`). */
  readonly size: number | null;
  readonly ci: CrossoverInterval | null;
  /** The codec faster below the crossover (or, when size is null, at most sizes). */
  readonly fasterBelow: string;
  /** How often the p50 ratio crosses 1 over the range. */
  readonly crossings: number;
  readonly reason?: string;
  /** Envelope kinds: the pair compared at each size. */
  readonly pairs?: readonly { readonly size: number; readonly a: string; readonly b: string }[];
}

/** One stream's own points and crossovers (what @snappykit/auto's per-kind thresholds use). */
export interface SweepSeries {
  readonly name: SweepSeriesName;
  /** Fixture payloads the stream is made of. */
  readonly sources: readonly string[];
  /** Uncompressed ÷ compressed bytes (the gate reference's output), over every size. */
  readonly ratio: number;
  readonly points: readonly SweepPoint[];
  readonly crossover: readonly SweepCrossover[];
}

/** The sweep's own figures. */
export interface SweepFigures {
  readonly schema: number;
  /** What the messages were cut from. */
  readonly data: string;
  readonly sizes: readonly number[];
  readonly codecs: readonly {
    readonly id: string;
    readonly library: string;
    readonly runtime: string;
  }[];
  /** Both streams' messages of a size added up, fork by fork. */
  readonly points: readonly SweepPoint[];
  readonly crossover: readonly SweepCrossover[];
  /** The same per stream: points are per message of that stream. */
  readonly series: readonly SweepSeries[];
}

/** sweep.json: how the run was made (the bench writes its whole run header), then the figures. */
export interface SweepReport extends SweepFigures {
  readonly command: string;
  readonly mode: "full" | "quick";
  readonly durationMs: number;
  readonly environment: RunEnvironment;
  /** The codec every `uncompress` decoded the output of, after the cross-compatibility gate. */
  readonly gateReference: string;
}

/**
 * Read a sweep.json.
 * @throws Error naming `path` when it cannot be read or is not a sweep of this schema.
 */
export function readSweepReport(path: string): SweepReport {
  let parsed: Partial<SweepReport>;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read sweep ${path}: ${(error as Error).message}`);
  }
  if (parsed?.schema !== SWEEP_SCHEMA || !Array.isArray(parsed.series)) {
    throw new Error(
      `${path} is not a schema ${SWEEP_SCHEMA} sweep report (\`pnpm bench sweep\` writes one)`,
    );
  }
  return parsed as SweepReport;
}

// From a size sweep to the thresholds auto routes by: the one derivation both the shipped
// thresholds.json (scripts/thresholds.mjs) and a calibration on the user's machine (`npx
// @snappykit/auto calibrate`) use. It reads only what it needs of the sweep (the bench's sweep.json
// has all of it), so this package depends on no tool or app.
import type { KindThresholds, Provenance, Thresholds } from "./auto.js";

/** The pair auto chooses between. */
const PAIR = ["napi", "ts"];
const OPS = ["compress", "uncompress"] as const;
/** Which of the sweep's streams stands for which kind of data. */
const KIND_OF_SERIES = { blocks: "compressible", sidecars: "incompressible" } as const;

/** The part of a size sweep (the bench's sweep.json) the thresholds are made from. */
export interface SweepForThresholds {
  readonly command?: string;
  readonly environment?: {
    readonly commit?: string | null;
    readonly node?: string;
    readonly date?: string;
    readonly cpu?: string;
    readonly cores?: number;
    readonly os?: string;
    readonly arch?: string;
    readonly memoryGiB?: number;
    /** A machine already in words, and the command, where a sweep's environment has them. */
    readonly machine?: string;
    readonly command?: string;
    /** The runtime the sweep's forks ran in (`--runtime`), when not the bench's own Node. */
    readonly runtime?: { readonly name: string; readonly version: string };
  };
  readonly series?: readonly {
    readonly name: string;
    readonly ratio: number;
    readonly points: readonly {
      readonly codec: string;
      readonly op: string;
      readonly size: number;
      readonly p50: number;
    }[];
    readonly crossover: readonly {
      readonly op: string;
      readonly codecs: readonly string[];
      readonly size: number | null;
      readonly ci?: {
        readonly low: number | null;
        readonly high: number | null;
        readonly level: number;
      } | null;
    }[];
  }[];
}

/** Where one threshold came from: the sweep's crossover for that op and kind. */
export interface CrossoverSource {
  readonly series: string;
  readonly ratio: number;
  readonly size: number | null;
  readonly ci: {
    readonly low: number | null;
    readonly high: number | null;
    readonly level: number;
  } | null;
}

/** A thresholds file (thresholds.json, or one a calibration writes): what `createCodec({ thresholds })` takes as it is. */
export interface ThresholdsFile extends Thresholds {
  readonly provenance: Provenance & {
    readonly crossover: {
      readonly [op in keyof Thresholds]: Record<keyof KindThresholds, CrossoverSource>;
    };
  };
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Which codec wins an op with no crossover in range: the one faster at most sizes (medians
 * over payloads). The threshold: 0 (native throughout) or null (never).
 */
function noCrossing(
  points: NonNullable<SweepForThresholds["series"]>[number]["points"],
  op: string,
) {
  const bySize = new Map<number, { napi: number[]; ts: number[] }>();
  for (const p of points) {
    if (p.op !== op || !PAIR.includes(p.codec)) continue;
    const at = bySize.get(p.size) ?? { napi: [], ts: [] };
    at[p.codec as "napi" | "ts"].push(p.p50);
    bySize.set(p.size, at);
  }
  let native = 0;
  let ts = 0;
  for (const { napi, ts: t } of bySize.values()) {
    if (!napi.length || !t.length) continue;
    if (median(napi) < median(t)) native++;
    else ts++;
  }
  if (native + ts === 0) throw new Error(`the sweep has no ts and napi points for ${op}`);
  return native > ts ? 0 : null;
}

/**
 * The thresholds a sweep gives: per op, the ts/napi crossover of the block stream for
 * compressible data and of the sidecar stream for incompressible data (a crossover out of
 * range becomes 0 or null, by which codec wins at most sizes), with where they came from.
 * @param source "shipped" for this package's thresholds.json, "calibrated" for a user's run.
 * @throws Error when the sweep lacks a stream or the ts/napi pair.
 */
export function thresholdsFromSweep(
  sweep: SweepForThresholds,
  generatedBy: string,
  source: Provenance["source"] = "shipped",
): ThresholdsFile {
  const result = {} as Record<(typeof OPS)[number], Record<keyof KindThresholds, number | null>>;
  const crossover = {} as Record<
    (typeof OPS)[number],
    Record<keyof KindThresholds, CrossoverSource>
  >;
  for (const op of OPS) {
    result[op] = {} as Record<keyof KindThresholds, number | null>;
    crossover[op] = {} as Record<keyof KindThresholds, CrossoverSource>;
    for (const [name, kind] of Object.entries(KIND_OF_SERIES)) {
      const series = (sweep.series ?? []).find((s) => s.name === name);
      if (!series) {
        throw new Error(
          `the sweep has no "${name}" series (made before \`bench sweep\` timed each stream?)`,
        );
      }
      const entry = series.crossover.find(
        (c) => c.op === op && [...c.codecs].sort().join() === PAIR.join(),
      );
      if (!entry) throw new Error(`the sweep's ${name} series has no ts/napi crossover for ${op}`);
      result[op][kind] =
        entry.size === null ? noCrossing(series.points, op) : Math.round(entry.size);
      crossover[op][kind] = {
        series: name,
        ratio: series.ratio,
        size: entry.size,
        ci: entry.ci ?? null,
      };
    }
  }
  const e = sweep.environment ?? {};
  // The Node the forks ran in: a Node line's version, else the bench's own.
  const node = e.runtime?.name.startsWith("node")
    ? `v${e.runtime.version.replace(/^v/, "")}`
    : e.node;
  return {
    compress: result.compress,
    uncompress: result.uncompress,
    provenance: {
      source,
      commit: e.commit ?? "unknown",
      node: node ?? "unknown",
      machine:
        e.machine ??
        (e.cpu ? `${e.cpu} ×${e.cores}, ${e.os} ${e.arch}, ${e.memoryGiB} GiB` : "unknown"),
      date: e.date ?? "unknown",
      command: e.command ?? sweep.command ?? "unknown",
      generatedBy,
      crossover,
    },
  };
}

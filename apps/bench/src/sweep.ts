// `pnpm bench --sweep`: how cost grows with message size, and where the pure-JS/wasm codecs
// and the native ones cross. Every codec compresses and uncompresses messages of 64 B to
// 4 MiB (×4 steps, or `--sizes`) cut from real consensus bytes, timed by the main bench's
// machinery (gate, forks, fork medians with intervals); the crossover is interpolated between
// sizes from paired per-fork ratios (crossover.ts). The block series (compressible) and the
// sidecar series (incompressible) are timed as separate cases, so each has its own crossover
// (@snappykit/auto routes by both); the headline points add the two up fork by fork.
import { type CliOptions, selectNames } from "./args.js";
import { buildCases, getOp } from "./cases.js";
import { type CrossoverInterval, findCrossover, type RatioPoint } from "./crossover.js";
import { commandLine, nodeEnvironment } from "./modes.js";
import { type BenchPayload, loadPayloadSource, makePayload } from "./payloads.js";
import { planCases } from "./plan.js";
import { prepareInputs } from "./prepare.js";
import type { Io } from "./progress.js";
import { formatBytes, formatDuration } from "./report/format.js";
import type { BenchReport, CaseResult } from "./report/schema.js";
import { renderSweepMarkdown, sweepAnswers } from "./report/sweep-md.js";
import { renderSweepSvg } from "./report/sweep-svg.js";
import { outputDir, writeFiles } from "./report/write.js";
import { caseRatio, summarise } from "./results.js";
import { FULL_TIMING, QUICK_TIMING, type TimingOptions } from "./run.js";
import { timeCases } from "./schedule.js";
import { chooseCodecs } from "./select.js";
import { type Interval, medianEstimate } from "./stats.js";
import { repeatTo, STREAM_SOURCES, streamParts } from "./streams.js";

/** Message sizes swept: 64 B to 4 MiB in ×4 steps. */
export const SWEEP_SIZES: readonly number[] = Array.from({ length: 9 }, (_, i) => 64 * 4 ** i);

/** Ops the sweep times. */
export const SWEEP_OPS = ["compress", "uncompress"] as const;

/** The two streams each size is cut from (streams.ts). */
export const SWEEP_SERIES = ["blocks", "sidecars"] as const;
/** One of {@link SWEEP_SERIES}. */
export type SweepSeriesName = (typeof SWEEP_SERIES)[number];

/** Bumped when sweep.json's shape changes incompatibly. */
export const SWEEP_SCHEMA = 1;

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

/** Where two codecs' times cross for one op (see crossover.ts for the method). */
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

/** sweep.json: the main report's run header, then the sweep's own figures. */
export interface SweepReport
  extends Pick<
    BenchReport,
    "command" | "mode" | "timing" | "durationMs" | "environment" | "gateReference" | "failures"
  > {
  readonly schema: number;
  /** What the messages were cut from. */
  readonly data: string;
  readonly sizes: readonly number[];
  readonly codecs: readonly {
    readonly id: string;
    readonly library: string;
    readonly runtime: string;
  }[];
  readonly points: readonly SweepPoint[];
  readonly crossover: readonly SweepCrossover[];
  /** The same per stream: points are per message of that stream. */
  readonly series: readonly SweepSeries[];
}

/** How the sweep's messages are made, for the report. */
export const SWEEP_DATA =
  "each size is two messages, timed as separate cases and added up fork by fork, reported " +
  "per message: the first `size` bytes " +
  `of the serialized blocks of ${STREAM_SOURCES.blocks.join(", ")} laid end to end (compress ~1.8×), ` +
  `and of ${STREAM_SOURCES.sidecars.join(", ")} laid end to end (~1.0×), both repeated where ` +
  "4 MiB needs more (from @snappykit/fixtures)";

/** The sweep's payloads: per size, a block-stream message, then a sidecar-stream one. */
export function sweepPayloads(sizes: readonly number[] = SWEEP_SIZES): BenchPayload[] {
  const source = loadPayloadSource();
  const parts = SWEEP_SERIES.map((series) => streamParts(source, STREAM_SOURCES[series]));
  return sizes.flatMap((size) =>
    SWEEP_SERIES.map((series, i) =>
      makePayload(
        `sweep-${series}-${size}`,
        `${formatBytes(size)} prefix of ${STREAM_SOURCES[series].join(", ")}`,
        "synthetic",
        [repeatTo(parts[i]!, size)],
      ),
    ),
  );
}

/** "sweep-blocks-4096" → ["blocks", 4096]; the combined cases are named "sweep-4096". */
const parseName = (payload: string) => {
  const m = /^sweep-(?:([a-z]+)-)?(\d+)$/.exec(payload)!;
  return { series: m[1], size: Number(m[2]) };
};

/** The swept range in words: "64 B–4.00 MiB". */
const rangeText = (sizes: readonly number[]) =>
  `${formatBytes(Math.min(...sizes))}–${formatBytes(Math.max(...sizes))}`;

/** Run the sweep; resolves to the exit code. */
export async function runSweep(
  opts: CliOptions,
  io: Io,
  log: (line: string) => void,
): Promise<number> {
  const started = performance.now();
  const ops = selectNames("op for --sweep", opts.ops ?? [...SWEEP_OPS], [...SWEEP_OPS]).map(getOp);
  const { selected, targets, gateReference } = await chooseCodecs(opts, log);
  const sizes = opts.sizes ?? SWEEP_SIZES;
  const payloads = sweepPayloads(sizes);
  const shape = `${sizes.length} sizes × ${SWEEP_SERIES.length} streams`;
  log(`gate: ${targets.length} codecs × ${shape} against ${gateReference.codec}`);
  const gate = await prepareInputs(gateReference, targets, payloads);

  const base = opts.quick ? QUICK_TIMING : FULL_TIMING;
  // A fixed fork count per point: the sweep's budget has no room for adaptive extras.
  const timing: TimingOptions = {
    ...base,
    clock: opts.clock,
    forks: opts.forks ?? base.forks,
    extraForks: 0,
  };
  const cases = buildCases({
    targets,
    rawTargets: [],
    payloads,
    ops,
    overheadPayloads: [],
    explicitOps: true,
  });
  const { rows, plan, identities } = planCases(cases, gate.prepared, selected, []);
  log(
    `sweep: ${cases.length} cases (${selected.length} codecs × ${ops.length} ops × ${shape}) × ${Math.max(1, timing.forks)} forks`,
  );
  const measured = await timeCases(rows, plan, timing, io, log);
  const results = measured.measurements.map((m, i) => summarise(identities[i]!, m));
  const combined = combineSeries(results);

  const runtime = new Map(selected.map((a) => [a.id, a.codec.runtime]));
  const report: SweepReport = {
    schema: SWEEP_SCHEMA,
    command: commandLine(),
    mode: opts.quick ? "quick" : "full",
    timing,
    durationMs: performance.now() - started,
    environment: { ...nodeEnvironment(selected), cpuIdle: measured.cpuIdle },
    gateReference: gate.reference,
    data: SWEEP_DATA,
    sizes,
    codecs: selected.map((a) => ({
      id: a.id,
      library: a.codec.library,
      runtime: a.codec.runtime,
    })),
    points: sweepPoints(combined),
    crossover: ops.flatMap((op) => sweepCrossovers(combined, op.id, runtime)),
    series: SWEEP_SERIES.map((name) => {
      const mine = results.filter((c) => parseName(c.payload).series === name);
      const prepared = gate.prepared.filter((p) => parseName(p.payload.name).series === name);
      const bytes = (xs: readonly Uint8Array[]) => xs.reduce((n, x) => n + x.length, 0);
      return {
        name,
        sources: STREAM_SOURCES[name],
        ratio:
          bytes(prepared.flatMap((p) => p.payload.items)) /
          bytes(prepared.flatMap((p) => p.referenceCompressed)),
        points: sweepPoints(mine),
        crossover: ops.flatMap((op) => sweepCrossovers(mine, op.id, runtime)),
      };
    }),
    failures: measured.failures,
  };

  // As with the main bench, only a full unfiltered sweep lands in the default folder.
  const written = writeFiles(
    outputDir(
      opts.out,
      !opts.quick && timing.forks > 0 && !opts.codecs && !opts.ops && !opts.sizes,
    ),
    [
      ["sweep.json", `${JSON.stringify(report, null, 2)}\n`] as const,
      ["sweep.md", renderSweepMarkdown(report)] as const,
      ["sweep.svg", renderSweepSvg(report)] as const,
    ].filter(([name]) => opts.formats.some((f) => name.endsWith(`.${f}`))),
  );
  io.stdout.write(`${sweepAnswers(report).join("\n")}\n`);
  log(`wrote ${written.join(", ")} in ${formatDuration(performance.now() - started)}`);
  return 0;
}

const sizeOf = (c: CaseResult) => parseName(c.payload).size;

/**
 * Per codec × op × size, the block and sidecar cases as one case of both messages: fork
 * medians added fork by fork (both ran in the same fork), so ratios stay paired.
 */
export function combineSeries(results: readonly CaseResult[]): CaseResult[] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of results) {
    const k = `${c.codec}\u0000${c.impl}\u0000${c.op}\u0000${sizeOf(c)}`;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  return [...groups.values()].map((cs) => {
    const first = cs[0]!;
    const forkMedians = first.forkMedians.map((_, i) =>
      cs.every((c) => c.forkMedians[i] != null)
        ? cs.reduce((sum, c) => sum + c.forkMedians[i]!, 0)
        : null,
    );
    const e = medianEstimate(forkMedians.map((x) => x ?? Number.NaN));
    const sum = (f: (c: CaseResult) => number) => cs.reduce((n, c) => n + f(c), 0);
    const payload = `sweep-${sizeOf(first)}`;
    return {
      ...first,
      key: first.key.replace(first.payload, payload),
      payload,
      items: sum((c) => c.items),
      bytes: sum((c) => c.bytes),
      samples: sum((c) => c.samples),
      forks: forkMedians.filter((x) => x !== null).length,
      forkMedians,
      p50: e.value,
      ci: e.ci,
      // Batch percentiles do not add up across cases; the sweep reports only p50 and ci.
      p75: Number.NaN,
      p99: Number.NaN,
      min: Number.NaN,
      max: Number.NaN,
      alloc: { heap: sum((c) => c.alloc.heap), external: sum((c) => c.alloc.external) },
      wallMs: sum((c) => c.wallMs),
    };
  });
}

/** Per-message points from the cases (a case times both messages of its size). */
export function sweepPoints(results: readonly CaseResult[]): SweepPoint[] {
  return results
    .filter((c) => Number.isFinite(c.p50))
    .map((c) => {
      const size = sizeOf(c);
      const p50 = c.p50 / c.items;
      return {
        codec: c.codec,
        op: c.op,
        size,
        p50,
        ...(c.ci && {
          ci: { low: c.ci.low / c.items, high: c.ci.high / c.items, level: c.ci.level },
        }),
        mbps: (size / p50) * 1e3,
        forks: c.forks,
      };
    });
}

/**
 * The op's crossovers: fastest pure-JS/wasm codec against fastest native codec, ts against
 * the fastest native codec, and ts against napi (the pair `@snappykit/auto` chooses
 * between); a kind is left out when its codecs were not run.
 */
export function sweepCrossovers(
  results: readonly CaseResult[],
  op: string,
  runtime: ReadonlyMap<string, string>,
): SweepCrossover[] {
  // auto routes between ts and napi: it is the answer the crossover feeds, not a contestant.
  const cases = results.filter((c) => c.op === op && c.codec !== "auto" && Number.isFinite(c.p50));
  const sizes = [...new Set(cases.map(sizeOf))].sort((a, b) => a - b);
  if (sizes.length === 0) return [];
  const at = (size: number) => cases.filter((c) => sizeOf(c) === size);
  const fastest = (cs: readonly CaseResult[]) =>
    cs.length === 0 ? undefined : cs.reduce((x, y) => (y.p50 < x.p50 ? y : x));
  const isNative = (c: CaseResult) => runtime.get(c.codec) === "native";
  const pick: Record<CrossoverKind, (cs: readonly CaseResult[]) => [CaseResult?, CaseResult?]> = {
    "js-vs-native": (cs) => [fastest(cs.filter((c) => !isNative(c))), fastest(cs.filter(isNative))],
    "ts-vs-native": (cs) => [cs.find((c) => c.codec === "ts"), fastest(cs.filter(isNative))],
    "ts-vs-napi": (cs) => [cs.find((c) => c.codec === "ts"), cs.find((c) => c.codec === "napi")],
  };
  const out: SweepCrossover[] = [];
  for (const kind of Object.keys(pick) as CrossoverKind[]) {
    const pairs = sizes.map((size) => ({ size, pair: pick[kind](at(size)) }));
    if (pairs.some((p) => !p.pair[0] || !p.pair[1])) continue;
    const points: RatioPoint[] = pairs.map(({ size, pair }) => {
      const r = caseRatio(pair[0]!, pair[1]!);
      return {
        size,
        ratio: r.value,
        ...(r.ci && { low: r.ci.low, high: r.ci.high, level: r.ci.level }),
      };
    });
    const names = pairs.map(({ size, pair }) => ({
      size,
      a: pair[0]!.codec,
      b: pair[1]!.codec,
    }));
    const found = findCrossover(
      points,
      {
        a: kind === "js-vs-native" ? "the fastest JS/wasm codec" : "ts",
        b: kind === "ts-vs-napi" ? "napi" : "the fastest native codec",
      },
      rangeText(sizes),
    );
    const below =
      found.size === null
        ? names[names.length - 1]!
        : ([...names].reverse().find((n) => n.size <= found.size!) ?? names[0]!);
    const codecs: [string, string] = [below.a, below.b];
    out.push({
      op,
      kind,
      codecs,
      size: found.size,
      ci: found.ci,
      fasterBelow: found.fasterBelow === "a" ? codecs[0] : codecs[1],
      crossings: found.crossings,
      ...(found.reason && { reason: found.reason }),
      ...(kind !== "ts-vs-napi" && { pairs: names }),
    });
  }
  return out;
}

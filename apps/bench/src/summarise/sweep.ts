// The sweep's figures from its timed cases: per codec, op and size a point with its
// interval, the block and sidecar streams added up fork by fork for the headline, and where
// two codecs' curves cross (`findCrossover` of @snappykit/auto), for both streams together and for each alone.

import { findCrossover, type RatioPoint } from "@snappykit/auto";
import { formatBytes } from "@snappykit/workspace/format";
import type { CaseResult } from "../model/report.js";
import {
  type CrossoverKind,
  parseSweepPayload,
  type SweepCrossover,
  type SweepFigures,
  type SweepPoint,
  type SweepSeries,
  sweepPayloadName,
} from "../model/sweep.js";
import { caseRatio } from "./results.js";
import { medianEstimate } from "./stats.js";

/** The swept range in words: "64 B–4.00 MiB". */
const rangeText = (sizes: readonly number[]) =>
  `${formatBytes(Math.min(...sizes))}–${formatBytes(Math.max(...sizes))}`;

const sizeOf = (c: CaseResult) => parseSweepPayload(c.payload).size;

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
    const payload = sweepPayloadName(sizeOf(first));
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

/**
 * The sweep's figures: points and crossovers of both streams added up (the headline), then
 * of each stream alone, from the cases timed per stream.
 */
export function sweepFigures(
  results: readonly CaseResult[],
  ops: readonly string[],
  runtime: ReadonlyMap<string, string>,
  streams: readonly Pick<SweepSeries, "name" | "sources" | "ratio">[],
): Pick<SweepFigures, "points" | "crossover" | "series"> {
  const figures = (cases: readonly CaseResult[]) => ({
    points: sweepPoints(cases),
    crossover: ops.flatMap((op) => sweepCrossovers(cases, op, runtime)),
  });
  return {
    ...figures(combineSeries(results)),
    series: streams.map((stream) => ({
      ...stream,
      ...figures(results.filter((c) => parseSweepPayload(c.payload).series === stream.name)),
    })),
  };
}

// Figures from forks: each case's estimate and spread, each codec relative to the reference
// and to the row's fastest, each adapter against its library, and which rows still need
// forks. Ratios pair the forks, as every target of a row ran in the same fork's turns.
import type { Estimate } from "../model/estimate.js";
import type { CaseIdentity, CaseResult, OverheadRow, RelativeRow } from "../model/report.js";
import type { CaseMeasurement } from "../model/timing.js";
import {
  halfWidthPercent,
  medianEstimate,
  medianOf,
  pairedRatio,
  percentInterval,
  ratioToPercent,
  sideOfOne,
} from "./stats.js";

const at = (sorted: readonly number[], q: number) => sorted[(q * (sorted.length - 1)) | 0]!;

/** Summarise one case's forks. */
export function summarise(id: CaseIdentity, m: CaseMeasurement): CaseResult {
  const medians = m.forkMedians.filter((x) => Number.isFinite(x));
  const e = medianEstimate(medians);
  const s = [...m.samples].sort((a, b) => a - b);
  return {
    ...id,
    batch: m.batch,
    samples: s.length,
    forks: medians.length,
    forkMedians: m.forkMedians.map((x) => (Number.isFinite(x) ? x : null)),
    p50: e.value,
    ...(e.ci && { ci: e.ci }),
    p75: s.length ? at(s, 0.75) : Number.NaN,
    p99: s.length ? at(s, 0.99) : Number.NaN,
    min: s[0] ?? Number.NaN,
    max: s[s.length - 1] ?? Number.NaN,
    alloc: m.alloc,
    ...(m.peaks.length > 0 && {
      peak: {
        bytes: medianOf(m.peaks),
        low: Math.min(...m.peaks),
        high: Math.max(...m.peaks),
        forks: m.peaks.length,
      },
    }),
    wallMs: m.wallMs,
  };
}

/** A case's fork medians by fork index, NaN where a fork lost it (what the tests take). */
export const forkValues = (c: CaseResult) => c.forkMedians.map((x) => x ?? Number.NaN);

/** A ratio between two cases of one fork set, paired fork by fork. */
export function caseRatio(a: CaseResult, b: CaseResult): Estimate {
  return pairedRatio(forkValues(a), forkValues(b));
}

/** The timed adapter cases of each row (payload × op), by {@link rowKey}. */
export function rowsOf(cases: readonly CaseResult[]): Map<string, CaseResult[]> {
  const rows = new Map<string, CaseResult[]>();
  for (const c of cases) {
    if (c.impl !== "adapter" || !Number.isFinite(c.p50)) continue;
    rows.set(rowKey(c), [...(rows.get(rowKey(c)) ?? []), c]);
  }
  return rows;
}

/** A row's key: its payload and op. */
export const rowKey = (c: Pick<CaseResult, "payload" | "op">) => `${c.payload}\u0000${c.op}`;

/** Relative figures for every row of adapter cases. */
export function relativeRows(cases: readonly CaseResult[], reference: string): RelativeRow[] {
  return [...rowsOf(cases).values()].map((row) => {
    const ref = row.find((c) => c.codec === reference);
    const best = row.reduce((a, b) => (b.p50 < a.p50 ? b : a));
    const cells = row.map((c) => {
      const r = ref ? caseRatio(c, ref) : undefined;
      const vsBest = caseRatio(c, best);
      return {
        codec: c.codec,
        ...(r && { ratio: r.value }),
        ...(r?.ci && { ci: r.ci }),
        // Only a difference the interval supports counts: with one fork nothing is tied.
        fastest: c === best || (vsBest.ci !== undefined && sideOfOne(vsBest.ci) !== 1),
      };
    });
    return {
      payload: row[0]!.payload,
      op: row[0]!.op,
      reference,
      fastest: cells.filter((c) => c.fastest).map((c) => c.codec),
      cells,
    };
  });
}

/** Pair every raw case with its adapter case. */
export function computeOverhead(cases: readonly CaseResult[]): OverheadRow[] {
  const rows: OverheadRow[] = [];
  for (const raw of cases) {
    if (raw.impl !== "raw") continue;
    const adapter = cases.find(
      (c) =>
        c.impl === "adapter" &&
        c.codec === raw.codec &&
        c.payload === raw.payload &&
        c.op === raw.op,
    );
    if (!adapter) continue;
    const r = caseRatio(adapter, raw);
    rows.push({
      codec: raw.codec,
      payload: raw.payload,
      op: raw.op,
      rawP50: raw.p50,
      adapterP50: adapter.p50,
      percent: ratioToPercent(r.value),
      ...(r.ci && {
        ci: percentInterval(r.ci),
      }),
      withinNoise: r.ci === undefined || sideOfOne(r.ci) === 0,
    });
  }
  return rows;
}

/**
 * The rows (by index) whose figures are still too uncertain: some case's ratio to its
 * partner, paired by fork, has an interval wider than ±`widthPercent`. The partner is the
 * reference codec for an adapter case (the relative table) and the adapter for a raw case
 * (the overhead table); the reference's own time is left out, since it carries the VM's
 * drift that ratios cancel.
 */
export function wideRows(
  measurements: readonly CaseMeasurement[],
  reference: string,
  widthPercent: number,
): number[] {
  const wide = new Set<number>();
  for (const m of measurements) {
    if (wide.has(m.row)) continue;
    const partner = measurements.find(
      (p) =>
        p.row === m.row &&
        p.spec.impl === "adapter" &&
        p.spec.codec === (m.spec.impl === "raw" ? m.spec.codec : reference),
    );
    if (!partner || partner === m) continue;
    const half = halfWidthPercent(pairedRatio(m.forkMedians, partner.forkMedians));
    if (half === undefined || half > widthPercent) wide.add(m.row);
  }
  return [...wide].sort((a, b) => a - b);
}

// `--compare`: per-case p50 change against a baseline report, with regressions flagged.
import type { BenchReport, Comparison, ComparisonRow } from "./report/json.js";

/** Default change, in percent of the baseline p50, beyond which a case is flagged. */
export const DEFAULT_THRESHOLD_PERCENT = 10;

/**
 * Compare `current` with `baseline` case by case (matched by case key). A case slower by
 * more than `thresholdPercent` is a regression, faster by more is an improvement.
 */
export function compareReports(
  baseline: BenchReport,
  current: Pick<BenchReport, "cases">,
  thresholdPercent: number,
  baselineName: string,
): Comparison {
  const base = new Map(baseline.cases.map((c) => [c.key, c]));
  const seen = new Set<string>();
  const rows: ComparisonRow[] = [];
  const payloadChanged = new Set<string>();
  for (const c of current.cases) {
    const b = base.get(c.key);
    if (!b) continue;
    seen.add(c.key);
    // Same name, other bytes (regenerated fixtures): not the same measurement.
    if (b.bytes !== c.bytes || b.items !== c.items) {
      payloadChanged.add(c.payload);
      continue;
    }
    const deltaPercent = ((c.p50 - b.p50) / b.p50) * 100;
    rows.push({
      key: c.key,
      codec: c.codec,
      impl: c.impl,
      payload: c.payload,
      op: c.op,
      baseP50: b.p50,
      p50: c.p50,
      deltaPercent,
      verdict:
        deltaPercent > thresholdPercent
          ? "regression"
          : deltaPercent < -thresholdPercent
            ? "improvement"
            : "same",
    });
  }
  return {
    baseline: baselineName,
    baselineDate: baseline.environment?.date ?? "unknown",
    thresholdPercent,
    rows,
    onlyInBaseline: baseline.cases.filter((c) => !seen.has(c.key)).map((c) => c.key),
    onlyInCurrent: current.cases.filter((c) => !base.has(c.key)).map((c) => c.key),
    payloadChanged: [...payloadChanged],
  };
}

/** The regressions of a comparison. */
export function regressions(comparison: Comparison): ComparisonRow[] {
  return comparison.rows.filter((r) => r.verdict === "regression");
}

/** Largest absolute p50 change among rows matching `filter`, for drift summaries. */
export function maxAbsDelta(
  comparison: Comparison,
  filter: (row: ComparisonRow) => boolean = () => true,
): number {
  return comparison.rows.filter(filter).reduce((m, r) => Math.max(m, Math.abs(r.deltaPercent)), 0);
}

// What a run produces: one report object, tagged with the mode that made it. The formats
// table (render/formats.ts) renders each kind.
import type { MergeReport } from "./merge.js";
import type { BenchReport } from "./report.js";
import type { SoakReport } from "./soak.js";
import type { SweepReport } from "./sweep.js";

/** The report each mode makes. */
export interface Reports {
  readonly bench: BenchReport;
  readonly sweep: SweepReport;
  readonly soak: SoakReport;
  readonly merge: MergeReport;
}

/** A kind of report: the mode's name, and the stem of its files (bench.json, sweep.md, …). */
export type ReportKind = keyof Reports;

/** A run's one report object, with its kind. */
export type Outcome = {
  [K in ReportKind]: { readonly kind: K; readonly report: Reports[K] };
}[ReportKind];

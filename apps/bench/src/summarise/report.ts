// The one place a BenchReport is assembled: what was selected, what the gate checked and
// measured, and the figures derived from the timed cases (results.ts).
import type { CodecTarget } from "@snappykit/workspace/targets";
import type { Unloaded } from "../inputs/catalog.js";
import type { BenchPayload, OpSpec, PreparedInputs } from "../model/case.js";
import { type BenchReport, REPORT_SCHEMA } from "../model/report.js";
import { computeOverhead, relativeRows } from "./results.js";

/** Everything a run has gathered by the time its cases are timed. */
export interface RunRecord
  extends Pick<
    BenchReport,
    "command" | "timing" | "durationMs" | "environment" | "reference" | "cases" | "failures"
  > {
  readonly quick: boolean;
  readonly gate: PreparedInputs;
  readonly payloads: readonly BenchPayload[];
  readonly ops: readonly OpSpec[];
  readonly selected: readonly CodecTarget[];
  readonly unavailable: readonly Unloaded[];
}

/** The report of a run (without a comparison: compare.ts adds that). */
export function buildReport(run: RunRecord): BenchReport {
  return {
    schema: REPORT_SCHEMA,
    command: run.command,
    mode: run.quick ? "quick" : "full",
    timing: run.timing,
    durationMs: run.durationMs,
    environment: run.environment,
    reference: run.reference,
    gateReference: run.gate.reference,
    gateChecks: run.gate.checks,
    payloads: run.payloads.map((p) => ({
      name: p.name,
      description: p.description,
      kind: p.kind,
      items: p.items.length,
      bytes: p.bytes,
    })),
    ops: run.ops.map((o) => ({ id: o.id, description: o.description })),
    codecs: run.selected.map((a) => ({
      id: a.id,
      packageName: a.packageName,
      library: a.codec.library,
      runtime: a.codec.runtime,
      async:
        typeof a.codec.compressAsync === "function" ||
        typeof a.codec.uncompressAsync === "function",
      ...(a.variant !== undefined && { variantOf: a.adapter }),
    })),
    unavailable: run.unavailable.map((f) => ({
      id: f.id,
      packageName: f.packageName,
      reason: f.reason,
    })),
    sizes: run.gate.sizes,
    cases: run.cases,
    relative: relativeRows(run.cases, run.reference),
    overhead: computeOverhead(run.cases),
    failures: run.failures,
  };
}

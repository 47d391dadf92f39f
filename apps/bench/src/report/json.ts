// The JSON report: every figure of a run plus its environment. It is the source the
// Markdown, SVG and `--compare` work from, so it must stand on its own.
import { readFileSync } from "node:fs";
import type { ComparisonEntry, ComparisonInfo } from "../compare.js";
import type { Environment } from "../env.js";
import type { SizeResult } from "../gate.js";
import type { CaseResult, OverheadRow, RelativeRow } from "../results.js";
import type { TimingOptions } from "../run.js";
import type { ForkFailure } from "../schedule.js";

/** Bumped when the report's shape changes incompatibly (2: forks and intervals). */
export const REPORT_SCHEMA = 2;

/** A loaded codec as the report lists it. */
export interface CodecInfo {
  readonly id: string;
  readonly packageName: string;
  readonly library: string;
  readonly runtime: string;
  /** Whether it offers compressAsync/uncompressAsync (thread pool). */
  readonly async: boolean;
  /** For an adapter's variant (non-default settings): the adapter's id. */
  readonly variantOf?: string;
}

/** An adapter that could not be loaded, and why. */
export interface UnavailableCodec {
  readonly id: string;
  readonly packageName: string;
  readonly reason: string;
}

/** A payload as the report lists it. */
export interface PayloadInfo {
  readonly name: string;
  readonly description: string;
  readonly kind: string;
  readonly items: number;
  readonly bytes: number;
}

/** Everything one `pnpm bench` run measured. */
export interface BenchReport {
  readonly schema: typeof REPORT_SCHEMA;
  /** The command line that produced it. */
  readonly command: string;
  readonly mode: "full" | "quick";
  readonly timing: TimingOptions;
  readonly durationMs: number;
  readonly environment: Environment;
  /** The codec relative figures divide by. */
  readonly reference: string;
  /** The codec the gate checked everything against; every `uncompress` decodes its output. */
  readonly gateReference: string;
  readonly gateChecks: number;
  readonly payloads: readonly PayloadInfo[];
  readonly ops: readonly { readonly id: string; readonly description: string }[];
  readonly codecs: readonly CodecInfo[];
  readonly unavailable: readonly UnavailableCodec[];
  readonly sizes: readonly SizeResult[];
  readonly cases: readonly CaseResult[];
  /** Per payload × op: each codec relative to the reference and to the fastest. */
  readonly relative: readonly RelativeRow[];
  readonly overhead: readonly OverheadRow[];
  /** Forks that lost a target (crash, hang, failed request); the run went on without it. */
  readonly failures: readonly ForkFailure[];
  /** With `--compare`: one entry per matched case, and how the comparison was made. */
  readonly comparison?: readonly ComparisonEntry[];
  readonly compared?: ComparisonInfo;
}

/** Serialise a report (stable key order, 2-space indent, trailing newline). */
export function renderJson(report: BenchReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * Read a report written by {@link renderJson}.
 * @throws Error if the file is not a bench report of this schema.
 */
export function readReport(path: string): BenchReport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read report ${path}: ${(error as Error).message}`);
  }
  const report = parsed as Partial<BenchReport>;
  if (!Array.isArray(report.cases) || typeof report.schema !== "number") {
    throw new Error(`${path} is not a snappykit bench report (no "schema" and "cases")`);
  }
  if (report.schema !== REPORT_SCHEMA) {
    throw new Error(
      `${path} is a schema ${report.schema} bench report; this bench writes and compares schema ${REPORT_SCHEMA} (${
        report.schema < REPORT_SCHEMA
          ? "made before forks and intervals: rerun the baseline"
          : "made by a newer bench"
      })`,
    );
  }
  return report as BenchReport;
}

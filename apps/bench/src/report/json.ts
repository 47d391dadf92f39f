// The JSON report: every figure of a run plus its environment. It is the source the
// Markdown, SVG and `--compare` work from, so it must stand on its own.
import { readFileSync } from "node:fs";
import type { Environment } from "../env.js";
import type { SizeResult } from "../gate.js";
import type { CaseResult, TimingOptions } from "../run.js";

/** Bumped when the report's shape changes incompatibly. */
export const REPORT_SCHEMA = 1;

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

/** Adapter vs its library called directly, for one (codec, payload, op). */
export interface OverheadRow {
  readonly codec: string;
  readonly payload: string;
  readonly op: string;
  readonly rawP50: number;
  readonly adapterP50: number;
  /** (adapter - raw) / raw × 100: what the adapter's conversions and guards cost. */
  readonly percent: number;
}

/** A payload as the report lists it. */
export interface PayloadInfo {
  readonly name: string;
  readonly description: string;
  readonly kind: string;
  readonly items: number;
  readonly bytes: number;
}

/** One case's change against a baseline report. */
export interface ComparisonRow {
  readonly key: string;
  readonly codec: string;
  readonly impl: string;
  readonly payload: string;
  readonly op: string;
  readonly baseP50: number;
  readonly p50: number;
  /** (p50 - baseP50) / baseP50 × 100; positive is slower. */
  readonly deltaPercent: number;
  readonly verdict: "regression" | "improvement" | "same";
}

/** The result of `--compare`. */
export interface Comparison {
  readonly baseline: string;
  readonly baselineDate: string;
  readonly thresholdPercent: number;
  readonly rows: readonly ComparisonRow[];
  /** Case keys in only one of the two reports. */
  readonly onlyInBaseline: readonly string[];
  readonly onlyInCurrent: readonly string[];
  /** Payloads whose bytes differ between the runs (fixtures regenerated): not compared. */
  readonly payloadChanged?: readonly string[];
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
  readonly reference: string;
  readonly gateChecks: number;
  readonly payloads: readonly PayloadInfo[];
  readonly ops: readonly { readonly id: string; readonly description: string }[];
  readonly codecs: readonly CodecInfo[];
  readonly unavailable: readonly UnavailableCodec[];
  readonly sizes: readonly SizeResult[];
  readonly cases: readonly CaseResult[];
  readonly overhead: readonly OverheadRow[];
  readonly comparison?: Comparison;
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
    rows.push({
      codec: raw.codec,
      payload: raw.payload,
      op: raw.op,
      rawP50: raw.p50,
      adapterP50: adapter.p50,
      percent: ((adapter.p50 - raw.p50) / raw.p50) * 100,
    });
  }
  return rows;
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
  if (report.schema !== REPORT_SCHEMA || !Array.isArray(report.cases)) {
    throw new Error(
      `${path} is not a snappykit bench report (schema ${REPORT_SCHEMA} with "cases" expected)`,
    );
  }
  return report as BenchReport;
}

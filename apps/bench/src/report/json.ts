// The JSON report: every figure of a run plus its environment. It is the source the
// Markdown, SVG and `--compare` work from, so it must stand on its own.
import { readFileSync } from "node:fs";
import { type BenchReport, REPORT_SCHEMA } from "./schema.js";

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

// The files a run reads besides its inputs, and the folders its reports go to: a
// `--compare` baseline, the latest report of every other `--runtime` (the Markdown's
// Runtimes section) and apps/fuzz's safety matrix. They enter the run here, before its
// report is built, so the renderers read only the report.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { DEFAULT_RUNTIME, RUNTIMES } from "../model/options.js";
import {
  type BenchReport,
  REPORT_SCHEMA,
  type RuntimeRun,
  runtimeOf,
  type SafetySection,
} from "../model/report.js";

/** Default report folder. */
export const DEFAULT_OUT = join(repoRoot, "apps/bench/results");

/** The subfolder of a runtime's reports: none for the default runtime's. */
const runtimeFolder = (runtime: string) => (runtime === DEFAULT_RUNTIME ? [] : [runtime]);

/**
 * The folder a run writes to: `--out`, else apps/bench/results for a `complete` run (full
 * settings, nothing filtered) and results/partial for any other, so a quick or filtered
 * run never overwrites the numbers a README quotes; runtimes other than the default one
 * write to a subfolder of their own, so the default runtime's report stays put.
 */
export function outputDir(
  out: string | undefined,
  complete: boolean,
  runtime: string = DEFAULT_RUNTIME,
): string {
  if (out) return resolve(out);
  const runtimeDir = runtimeFolder(runtime);
  return complete ? join(DEFAULT_OUT, ...runtimeDir) : join(DEFAULT_OUT, "partial", ...runtimeDir);
}

/**
 * Read a bench.json (render/json.ts writes them).
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

/**
 * The latest report of every other runtime in `dir`'s layout (results/, results/<runtime>,
 * or the same under partial/), in RUNTIMES order, as the Runtimes section shows them.
 * Outside the default layout (`--out`), none.
 */
export function otherRuntimes(
  current: string,
  dir: string,
  log: (line: string) => void,
): RuntimeRun[] {
  const base = current === DEFAULT_RUNTIME ? dir : resolve(dir, "..");
  if (![DEFAULT_OUT, join(DEFAULT_OUT, "partial")].includes(base)) return [];
  return RUNTIMES.flatMap((name) => {
    if (name === current) return [];
    const path = join(base, ...runtimeFolder(name), "bench.json");
    if (!existsSync(path)) return [];
    try {
      const report = readReport(path);
      return [
        {
          runtime: runtimeOf(report.environment),
          cases: report.cases.map(({ codec, impl, payload, op, p50, ci }) => ({
            codec,
            impl,
            payload,
            op,
            p50,
            ...(ci && { ci }),
          })),
        },
      ];
    } catch (error) {
      log(`warning: leaving ${path} out of the Runtimes section: ${(error as Error).message}`);
      return [];
    }
  });
}

/**
 * Where to look for the fuzzer's report, relative to the repository root, in order: a
 * local `pnpm fuzz` run wins; a fresh clone falls back to the committed full run. The bench
 * does not run or import the fuzzer.
 */
export const SAFETY_FILES = ["apps/fuzz/results/safety.json", "apps/fuzz/docs/safety.json"];

/** The fuzzer's safety matrix from the first of its report files found, else undefined. */
export function readSafety(root = repoRoot): SafetySection | undefined {
  const source = SAFETY_FILES.find((f) => existsSync(join(root, f)));
  if (!source) return undefined;
  try {
    const markdown = (
      JSON.parse(readFileSync(join(root, source), "utf8")) as { markdown?: unknown }
    )?.markdown;
    return { source, ...(typeof markdown === "string" && { markdown }) };
  } catch (error) {
    return { source, error: (error as Error).message };
  }
}

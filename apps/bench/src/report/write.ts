// Where reports go and the table of renderers (mitata's shape: one report object, a
// renderer per format). A full run of the default matrix replaces the report in
// apps/bench/results; any other run writes beside it, in results/partial, so a quick or
// filtered run never overwrites the numbers a README quotes.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { type Format, RUNTIMES } from "../args.js";
import { readReport, renderJson } from "./json.js";
import { type MarkdownExtras, renderMarkdown } from "./markdown.js";
import { loadSafetySection } from "./safety.js";
import type { BenchReport } from "./schema.js";
import { renderSvg } from "./svg.js";

/** Default report folder. */
export const DEFAULT_OUT = join(repoRoot, "apps/bench/results");

/** Per `--format`: the file it writes and its renderer (the terminal's is terminal.ts). */
export const RENDERERS: Record<
  Format,
  { file: string; render: (r: BenchReport, extras: MarkdownExtras) => string }
> = {
  json: { file: "bench.json", render: (r) => renderJson(r) },
  md: { file: "bench.md", render: (r, extras) => renderMarkdown(r, extras) },
  svg: { file: "bench.svg", render: (r) => renderSvg(r) },
};

/**
 * The folder a run writes to: `--out`, else apps/bench/results for a `complete` run (full
 * settings, nothing filtered) and results/partial for any other; other runtimes' reports
 * go to a subfolder of their own, so the Node report stays put.
 */
export function outputDir(out: string | undefined, complete: boolean, runtime = "node"): string {
  if (out) return resolve(out);
  const runtimeDir = runtime === "node" ? [] : [runtime];
  return complete ? join(DEFAULT_OUT, ...runtimeDir) : join(DEFAULT_OUT, "partial", ...runtimeDir);
}

/** Write `files` (name, text) into `dir`; returns their paths. */
export function writeFiles(dir: string, files: readonly (readonly [string, string])[]): string[] {
  mkdirSync(dir, { recursive: true });
  return files.map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
}

/**
 * Render `report` in each of `formats` into `dir`. The Markdown also gets the fuzzer's
 * safety summary and, in the default folders, the latest report of every other runtime.
 */
export function writeBenchReport(
  report: BenchReport,
  formats: readonly Format[],
  dir: string,
  log: (line: string) => void,
): string[] {
  const extras = (): MarkdownExtras => {
    const safety = loadSafetySection(repoRoot);
    return {
      ...(safety !== undefined && { safety }),
      runtimes: runtimeReports(report, dir, log),
    };
  };
  return writeFiles(
    dir,
    formats.map((f) => [
      RENDERERS[f].file,
      RENDERERS[f].render(report, f === "md" ? extras() : {}),
    ]),
  );
}

/**
 * This report and the latest report of every other runtime in `dir`'s layout (results/,
 * results/<runtime>, or the same under partial/), in RUNTIMES order, for the Markdown's
 * "Runtimes" section. Outside the default layout (`--out`), only this report.
 */
function runtimeReports(
  report: BenchReport,
  dir: string,
  log: (line: string) => void,
): BenchReport[] {
  const current = report.environment.runtime?.name ?? "node";
  const base = current === "node" ? dir : resolve(dir, "..");
  if (![DEFAULT_OUT, join(DEFAULT_OUT, "partial")].includes(base)) return [report];
  return RUNTIMES.flatMap((name) => {
    if (name === current) return [report];
    const path = join(base, ...(name === "node" ? [] : [name]), "bench.json");
    if (!existsSync(path)) return [];
    try {
      return [readReport(path)];
    } catch (error) {
      log(`warning: leaving ${path} out of the Runtimes section: ${(error as Error).message}`);
      return [];
    }
  });
}

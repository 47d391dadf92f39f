// The files a run reads besides its inputs, and the folders its reports go to: a
// `--compare` baseline, the latest report of every other `--runtime` (the Markdown's
// Runtimes section) and apps/fuzz's safety matrix. They enter the run here, before its
// report is built, so the renderers read only the report.
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { markdownTable } from "@snappykit/workspace/format";
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
 * What a run that is not complete (filtered, quick, --forks 0) says about the full report
 * of its kind it did not touch: that it was left as it was, or that there is none yet.
 */
export function keptNote(
  kind: string,
  runtime: string,
  fullDir = outputDir(undefined, true, runtime),
): string {
  const full = join(fullDir, `${kind}.json`);
  return existsSync(full)
    ? `(a filtered, quick or --forks 0 run: the full report ${relative(repoRoot, full)} is left as it was)`
    : `(a filtered, quick or --forks 0 run: there is no full ${kind} report in ${relative(repoRoot, fullDir)} yet; a run without filters writes one)`;
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

/**
 * The fuzzer's safety matrix from the first of its report files found, else undefined; with
 * `codecs` (a run filtered by --codec), only their rows.
 */
export function readSafety(root = repoRoot, codecs?: readonly string[]): SafetySection | undefined {
  const source = SAFETY_FILES.find((f) => existsSync(join(root, f)));
  if (!source) return undefined;
  try {
    const file = JSON.parse(readFileSync(join(root, source), "utf8")) as {
      markdown?: unknown;
      date?: string;
      environment?: { cpu?: string; cores?: number; node?: string };
    };
    const e = file.environment;
    const machine =
      e?.cpu &&
      `${e.cpu} × ${e.cores}, Node ${e.node?.replace(/^v/, "")}, ${file.date?.slice(0, 10)}`;
    const markdown = typeof file.markdown === "string" ? file.markdown : undefined;
    return {
      source,
      ...(machine && { machine }),
      ...(codecs && { codecs: [...codecs] }),
      ...(markdown !== undefined && { markdown: codecs ? onlyCodecs(markdown, codecs) : markdown }),
    };
  } catch (error) {
    return { source, error: (error as Error).message };
  }
}

/** A table's rule row: `| --- | ---: |`. */
const RULE = /^\|(?: *:?-+:? *\|)+$/;

/** A Markdown table row's cells, unescaped (`\|` is a bar inside a cell). */
const cellsOf = (line: string) =>
  line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll("\\|", "|"));

/**
 * Every table of `markdown` (a header row, a rule row, then rows) padded again to its own
 * rows: the fuzzer pads its columns to all its codecs, and with rows left out a table kept
 * that padding, which biome's Markdown formatter rewrites (a report of a `--codec` run failed
 * `biome check` as written).
 */
export function realignTables(markdown: string): string {
  const lines = markdown.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (!(lines[i]!.startsWith("|") && RULE.test(lines[i + 1] ?? ""))) {
      out.push(lines[i++]!);
      continue;
    }
    const headers = cellsOf(lines[i]!);
    const align = cellsOf(lines[i + 1]!).map((rule) => (rule.endsWith(":") ? "r" : "l"));
    let end = i + 2;
    while (end < lines.length && lines[end]!.startsWith("|")) end++;
    out.push(markdownTable(headers, align, lines.slice(i + 2, end).map(cellsOf)));
    i = end;
  }
  return out.join("\n");
}

/**
 * The fuzzer's Markdown with only the table rows and example lines of `codecs`: each names
 * its codec first ("| napi (snappy@7…) |", "| napi: snappy@7 |", "- napi (raw), …"), its
 * tables padded again to the rows kept.
 */
export function onlyCodecs(markdown: string, codecs: readonly string[]): string {
  const codecOf = (line: string) => {
    const m = /^(?:\| |- )([a-z0-9-]+)(?: \(|: |\s+\|)/.exec(line);
    return m?.[1];
  };
  return realignTables(
    markdown
      .split("\n")
      .filter((line) => {
        if (/^\| -/.test(line)) return true;
        const id = codecOf(line);
        // Header rows name a column ("adapter", "codec"), not a codec: kept.
        return id === undefined || codecs.includes(id) || /^\| (adapter|library|codec) /.test(line);
      })
      .join("\n"),
  );
}

// Sentences about a report that every renderer shares: the headline, the fork count, what a
// comparison found, the run line under a sweep's or a soak's title.
import { formatDuration } from "@snappykit/workspace/format";
import type { BenchReport, Environment } from "../model/report.js";
import { formatPercent } from "./numbers.js";

const RUNTIME_LABELS: Record<string, string> = { bun: "Bun", deno: "Deno", browser: "Chromium" };

/**
 * What ran the forks: "Node 20.20.2 (V8 …)", or for `--runtime` another runtime with the
 * Node that ran the gate and wrote the report.
 */
export function formatRuntime(e: Environment): string {
  const r = e.runtime;
  if (!r || r.name === "node") return `Node ${e.node} (V8 ${e.v8})`;
  return `${RUNTIME_LABELS[r.name] ?? r.name} ${r.version} (gate and report: Node ${e.node})`;
}

/** "`command` · date · commit · Node · CPU · …" under a sweep's or a soak's title. */
export function runLine(
  command: string,
  e: Environment,
  settings: string,
  durationMs: number,
): string {
  return [
    `\`${command}\``,
    `${e.date.slice(0, 16).replace("T", " ")} UTC`,
    `commit ${e.commit?.slice(0, 12) ?? "unknown"}`,
    `Node ${e.node}`,
    `${e.cpu} × ${e.cores} cores, ${e.memoryGiB} GiB`,
    `${settings}, ${formatDuration(durationMs)}`,
  ].join(" · ");
}

/** The one-line summary of where and how a report was made. */
export function headline(report: BenchReport): string {
  const e = report.environment;
  return [
    `\`${report.command}\``,
    `${e.date.slice(0, 16).replace("T", " ")} UTC`,
    `commit ${e.commit ? e.commit.slice(0, 12) + (e.commit.endsWith("-dirty") ? "-dirty" : "") : "unknown"}`,
    formatRuntime(e),
    `${e.cpu}, ${e.cores} cores, ${e.memoryGiB} GiB`,
    `${e.os} ${e.arch}`,
    `${report.mode} mode, ${report.timing.clock ?? "wall"} clock, ${formatDuration(report.durationMs)}`,
  ].join(" · ");
}

/** "9 forks" / "9 forks (+ up to 12 for uncertain rows)" / "1 in-process run". */
export function forksText(report: BenchReport): string {
  const { forks, extraForks = 0, targetWidthPercent } = report.timing;
  if (forks === 0) return "1 in-process run";
  return extraForks > 0
    ? `${forks} forks (+ up to ${extraForks} for rows whose ratios were wider than ±${targetWidthPercent} %)`
    : `${forks} forks`;
}

/** What a comparison found, in sentences (Markdown and terminal alike). */
export function comparisonSummary(report: BenchReport): string[] {
  const entries = report.comparison ?? [];
  const info = report.compared;
  if (!info) return [];
  const slower = entries.filter((e) => e.verdict === "slower").length;
  const faster = entries.filter((e) => e.verdict === "faster").length;
  const lines = [
    `Baseline \`${info.baseline}\` (${info.baselineDate}). ${entries.length} cases compared: ` +
      `${slower} significantly slower, ${faster} significantly faster, ` +
      `${entries.length - slower - faster} no significant change. Method: ${info.method}. ` +
      `Noise threshold ${info.thresholdPercent} % (\`--threshold\`): ${entries.filter((e) => e.verdict === "within noise").length} detected changes smaller than that count as noise. ` +
      "`--fail-on-regression` fails on significant slowdowns.",
  ];
  const d = info.relativeDrift;
  if (d) {
    lines.push(
      `Ratio to the reference on block-sized payloads moved ≤ 10 % in ${d.within10Percent} of ${d.cases} cases (median ${d.medianPercent.toFixed(1)} %).`,
    );
  }
  if (info.medianChangePercent !== undefined) {
    lines.push(
      `The median case moved ${formatPercent(info.medianChangePercent)}: when most cases moved together, that is the machine between the two runs, not the code (the ratios to the reference cancel it).`,
    );
  }
  const twoSpeeds = entries.filter((e) => e.twoSpeeds).length;
  if (twoSpeeds > 0) {
    lines.push(
      `${twoSpeeds} cases ran at one of two speeds per fork in a run: they were tested on their fast forks, and the table counts the slow ones, which are not tested (their share moves between runs of one commit).`,
    );
  }
  for (const w of info.warnings) lines.push(`Warning: ${w}.`);
  const skipped = new Map<string, string[]>();
  for (const s of info.skipped) skipped.set(s.reason, [...(skipped.get(s.reason) ?? []), s.key]);
  for (const [reason, keys] of skipped) {
    lines.push(
      `Not compared (${reason}): ${keys.length <= 6 ? keys.join(", ") : `${keys.slice(0, 6).join(", ")} and ${keys.length - 6} more`}.`,
    );
  }
  return lines;
}

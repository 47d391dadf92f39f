// Sentences about a report that every renderer shares: the headline, the fork count, what a
// comparison found, the run line under a sweep's or a soak's title.
import { formatDuration } from "@snappykit/workspace/format";
import { type BenchReport, type Environment, isBusy } from "../model/report.js";

const RUNTIME_LABELS: Record<string, string> = { bun: "Bun", deno: "Deno", browser: "Chromium" };

/** A runtime by name and version: "Node 24.21.0" (any Node line), "Bun 1.4.5", "Chromium …". */
export const runtimeLabel = (r: { readonly name: string; readonly version: string }) =>
  `${r.name.startsWith("node") ? "Node" : (RUNTIME_LABELS[r.name] ?? r.name)} ${r.version.replace(/^v/, "")}`;

/**
 * What ran the forks: "Node 20.20.2 (V8 …)", or for `--runtime` another runtime (a Node
 * line among them) with the Node that ran the gate and wrote the report.
 */
export function formatRuntime(e: Environment): string {
  const r = e.runtime;
  if (!r || r.name === "node") return `Node ${e.node} (V8 ${e.v8})`;
  return `${runtimeLabel(r)} (${r.name}; gate and report: Node ${e.node})`;
}

/**
 * A warning when the machine was busy (load average above half the cores at the start), or
 * undefined: under load absolute times move from run to run; ratios in one run far less.
 */
export function loadWarning(e: Environment): string | undefined {
  const load = e.load;
  if (!load || !isBusy(load)) return undefined;
  const end = load.end ? ` and ${load.end[0]} at the end` : "";
  return (
    `Warning: the machine was busy: load average ${load.start![0]} at the start${end} ` +
    `(1 minute; ${load.cores} cores). Absolute times from a loaded machine move from run ` +
    "to run; ratios measured in the same forks move far less. Compare runs on ratios."
  );
}

/** "`command` · date · commit · Node · CPU · …" under a sweep's or a soak's title, and any load warning. */
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
    formatRuntime(e),
    `${e.cpu} × ${e.cores} cores, ${e.memoryGiB} GiB`,
    `${settings}, ${formatDuration(durationMs)}`,
    ...loadText(e),
  ]
    .join(" · ")
    .concat(loadWarning(e) ? `\n\n${loadWarning(e)}` : "");
}

/** "load 1.2 → 3.4" for the run line, when recorded. */
function loadText(e: Environment): string[] {
  const l = e.load;
  if (!l?.start) return [];
  return [`load ${l.start[0]}${l.end ? ` → ${l.end[0]}` : ""} on ${l.cores} cores`];
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
    ...loadText(e),
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

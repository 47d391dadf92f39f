// The sweep's Markdown and terminal output: one-line answers per op, the crossovers with their
// intervals, and throughput per codec and size.
import { formatBytes } from "@snappykit/workspace/format";
import type { SweepCrossover, SweepReport } from "../model/sweep.js";
import { halfWidthPercent } from "../summarise/stats.js";
import { levelText } from "./levels.js";
import { markdownTable, type Table } from "./table.js";
import { loadWarning, runLine } from "./text.js";

/** "[8.00 KiB, 20.0 KiB]", open ends as "< 64 B" / "> 4.00 MiB". */
export function crossoverInterval(c: SweepCrossover, sizes: readonly number[]): string {
  if (!c.ci) return "no interval";
  const low = c.ci.low === null ? `< ${formatBytes(Math.min(...sizes))}` : formatBytes(c.ci.low);
  const high = c.ci.high === null ? `> ${formatBytes(Math.max(...sizes))}` : formatBytes(c.ci.high);
  return `[${low}, ${high}]`;
}

const KIND_TEXT: Record<SweepCrossover["kind"], string> = {
  "ts-vs-napi": "ts vs napi",
  "ts-vs-native": "ts vs the fastest native codec",
  "js-vs-native": "fastest JS/wasm vs fastest native codec",
};

/** One line per crossover: "compress, ts vs napi: ts is faster below ~12 KiB [8 KiB, 20 KiB]". */
export function crossoverLine(c: SweepCrossover, sizes: readonly number[]): string {
  const head = `${c.op}, ${KIND_TEXT[c.kind]}:`;
  if (c.size === null) return `${head} ${c.reason}`;
  const other = c.codecs[0] === c.fasterBelow ? c.codecs[1] : c.codecs[0];
  const level = c.ci ? ` (${levelText([c.ci])} pointwise)` : "";
  const wiggle = c.crossings > 1 ? `; the p50 curves cross ${c.crossings} times` : "";
  return `${head} ${c.fasterBelow} is faster below ~${formatBytes(c.size)} ${crossoverInterval(c, sizes)}${level}, ${other} above${wiggle}`;
}

/** The answers a reader wants first, ts vs napi then the rest, op by op. */
export function sweepAnswers(report: SweepReport): string[] {
  const order: SweepCrossover["kind"][] = ["ts-vs-napi", "ts-vs-native", "js-vs-native"];
  return [...report.crossover]
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))
    .map((c) => crossoverLine(c, report.sizes));
}

/** The terminal's: the answers. */
export function renderSweepTerminal(report: SweepReport): string {
  const warning = loadWarning(report.environment);
  return [...(warning ? [warning] : []), ...sweepAnswers(report)].join("\n");
}

/** Throughput table for one op: codecs × sizes, MB/s ± half-interval %. */
export function throughputTable(report: SweepReport, op: string): Table {
  const codecs = report.codecs.map((c) => c.id);
  const rows = codecs.map((codec) => [
    { text: codec },
    ...report.sizes.map((size) => {
      const p = report.points.find((x) => x.codec === codec && x.op === op && x.size === size);
      if (!p) return { text: "—" };
      const best = Math.max(
        ...report.points.filter((x) => x.op === op && x.size === size).map((x) => x.mbps),
      );
      const hw = halfWidthPercent({ value: p.p50, ...(p.ci && { ci: p.ci }) });
      const mbps = p.mbps >= 100 ? Math.round(p.mbps).toString() : p.mbps.toPrecision(3);
      return {
        text: hw === undefined ? mbps : `${mbps} ±${hw.toFixed(0)}%`,
        strong: p.mbps === best,
      };
    }),
  ]);
  return {
    headers: ["codec", ...report.sizes.map(formatBytes)],
    align: ["l", ...report.sizes.map(() => "r" as const)],
    rows,
  };
}

/** The whole sweep as Markdown (sweep.md). */
export function renderSweepMarkdown(report: SweepReport): string {
  const e = report.environment;
  const out = [
    "# Size sweep: where native and pure-JS/wasm Snappy cross",
    "",
    runLine(
      report.command,
      e,
      `${report.mode} mode, ${report.timing.forks} forks, ${report.timing.clock} clock`,
      report.durationMs,
    ),
    "",
    `Data: ${report.data}. \`uncompress\` decodes ${report.gateReference}'s output (every codec passed the cross-compatibility gate on every size first).`,
    "",
    "## Answers",
    "",
    ...sweepAnswers(report).map((l) => `- ${l}`),
    "",
    "How: at each size the ratio of the two codecs' times is the median of per-fork ratios " +
      "(both timed in the same forks), with its distribution-free interval. The crossover is " +
      "interpolated linearly in log size and log ratio between the two sizes around it; its " +
      "interval is where the ratio's interval bounds cross 1 the same way, i.e. the sizes " +
      "between which neither codec is significantly faster (pointwise level, not joint). " +
      "When the curves cross more than once, the crossover is the single threshold that " +
      "agrees with the most sizes.",
    "",
  ];
  for (const op of [...new Set(report.points.map((p) => p.op))]) {
    out.push(
      `## ${op}: throughput (MB/s of uncompressed bytes, p50 ± half its ${levelText(report.points.map((p) => p.ci))} interval; bold = fastest)`,
      "",
      markdownTable(throughputTable(report, op)),
      "",
    );
  }
  if (report.failures.length > 0) {
    out.push(
      "## Lost forks",
      "",
      ...report.failures.map((f) => `- fork ${f.fork + 1}, ${f.codec}: ${f.reason}`),
      "",
    );
  }
  return `${out.join("\n").trimEnd()}\n`;
}

// The Markdown report: what a client team pastes into a PR description.
import { BLOCK_SIZED_BYTES } from "../payloads.js";
import { formatDuration, formatPercent } from "./format.js";
import type { BenchReport } from "./json.js";
import {
  allocationTable,
  codecTable,
  comparisonTable,
  overheadTable,
  payloadTable,
  sizeTable,
  speedTable,
  spreadTable,
  type Table,
  unavailableTable,
} from "./tables.js";

const escapeCell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/** A table as GitHub Markdown, padded so it also reads well as plain text. */
export function markdownTable(table: Table): string {
  const cells = [
    table.headers.map(escapeCell),
    ...table.rows.map((row) =>
      row.map((cell) => (cell.strong ? `**${escapeCell(cell.text)}**` : escapeCell(cell.text))),
    ),
  ];
  const widths = table.headers.map((_, i) =>
    Math.max(3, ...cells.map((row) => [...(row[i] ?? "")].length)),
  );
  const pad = (s: string, i: number) => {
    const fill = " ".repeat(widths[i]! - [...s].length);
    return table.align[i] === "r" ? fill + s : s + fill;
  };
  const line = (row: readonly string[]) => `| ${row.map(pad).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (table.align[i] === "r" ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join("\n");
}

/** Extra sections supplied by the caller (kept out of the renderer so it stays pure). */
export interface MarkdownExtras {
  /** Body of "Safety on hostile input" (from apps/fuzz), if that helper has run. */
  readonly safety?: string;
}

/** The one-line summary of where and how a report was made. */
export function headline(report: BenchReport): string {
  const e = report.environment;
  return [
    `\`${report.command}\``,
    `${e.date.slice(0, 16).replace("T", " ")} UTC`,
    `commit ${e.commit ? e.commit.slice(0, 12) + (e.commit.endsWith("-dirty") ? "-dirty" : "") : "unknown"}`,
    `Node ${e.node} (V8 ${e.v8})`,
    `${e.cpu}, ${e.cores} cores, ${e.memoryGiB} GiB`,
    `${e.os} ${e.arch}`,
    `${report.mode} mode, ${report.timing.clock ?? "wall"} clock, ${formatDuration(report.durationMs)}`,
  ].join(" · ");
}

/** Render the whole report as Markdown. */
export function renderMarkdown(report: BenchReport, extras: MarkdownExtras = {}): string {
  const out: string[] = [];
  const section = (title: string, ...body: string[]) => out.push(`## ${title}`, "", ...body, "");

  out.push("# Snappy for JavaScript: snappykit bench", "", headline(report), "");
  out.push(
    `Reference codec: **${report.reference}**. Cross-compatibility gate passed: ` +
      `${report.gateChecks} round trips, every codec's output decoded by the reference and ` +
      "the reference's output by every codec, byte-exactly.",
    "",
  );

  section(
    "Speed: time per op (p50)",
    "One op processes every item of the payload. `uncompress` rows all decode the " +
      "reference's compressed bytes, so only the decoder differs. **Bold** = fastest in " +
      "the row; lower is better. `-async` rows are the thread-pool API, awaited item by item " +
      "(always wall time). " +
      (report.timing.clock === "cpu"
        ? "Sync rows are process CPU time (`--clock cpu`), not wall time."
        : "Times are wall time."),
    "",
    markdownTable(speedTable(report)),
  );
  section(
    "Compressed size",
    "Compressed bytes (ratio = uncompressed / compressed, higher is smaller) of each " +
      "encoder. **Bold** = smallest.",
    "",
    markdownTable(sizeTable(report)),
  );
  section(
    "Allocation per op",
    "Bytes allocated by one op, as `JS heap / external`: JS heap is mitata's probe " +
      "(V8 used heap + malloced), external is Buffer/ArrayBuffer backing stores, where " +
      "output bytes live and which mitata's probe does not see. Median of single ops, " +
      "each after two minor GCs (the counterpart of JMH's `-prof gc` B/op). **Bold** = least.",
    "",
    markdownTable(allocationTable(report)),
  );
  if (report.overhead.length > 0) {
    section(
      "Adapter overhead",
      "Each adapter's library called directly (`createRaw`: no guards, only the " +
        "conversions it cannot work without) against the same library through the " +
        "adapter, p50. The difference is what input checks, error mapping and copies cost.",
      "",
      markdownTable(overheadTable(report)),
    );
  }
  const cmp = comparisonTable(report);
  if (cmp && report.comparison) {
    const c = report.comparison;
    const reg = c.rows.filter((r) => r.verdict === "regression").length;
    section(
      "Compared with baseline",
      `Baseline \`${c.baseline}\` (${c.baselineDate}); threshold ±${c.thresholdPercent} % of ` +
        `its p50. ${reg} regression${reg === 1 ? "" : "s"}, ${c.rows.length} cases compared` +
        (c.onlyInBaseline.length + c.onlyInCurrent.length > 0
          ? `; ${c.onlyInBaseline.length} only in baseline, ${c.onlyInCurrent.length} only here.`
          : ".") +
        (c.payloadChanged?.length
          ? ` Not compared, payload bytes differ between the runs: ${c.payloadChanged.join(", ")}.`
          : ""),
      "",
      blockDrift(report),
      "",
      markdownTable(cmp),
    );
  }
  section(
    "Spread",
    "Each sample is the mean op time of one batch (batch = ops between event-loop " +
      "turns, sized to ~2 ms and ≤ 4 MiB of output); mitata drops the two fastest and " +
      "two slowest batches.",
    "",
    "<details><summary>p50, p75, p99, min, max, samples per case</summary>",
    "",
    markdownTable(spreadTable(report)),
    "",
    "</details>",
  );
  section("Payloads", markdownTable(payloadTable(report)));
  section(
    "Codecs",
    markdownTable(codecTable(report)),
    "",
    report.unavailable.length === 0
      ? "Every adapter in the workspace loaded."
      : `Unavailable (not measured):\n\n${markdownTable(unavailableTable(report))}`,
  );
  section(
    "Safety on hostile input",
    extras.safety ??
      "No fuzzing results found (`apps/fuzz/results/` or `apps/fuzz/docs/`); run `pnpm fuzz`.",
  );
  const e = report.environment;
  section(
    "Environment",
    [
      `- Node ${e.node}, V8 ${e.v8}, ${e.mitata}, --expose-gc: ${e.exposeGc ? "yes" : "no"}`,
      `- CPU: ${e.cpu} × ${e.cores}, ${e.memoryGiB} GiB RAM, ${e.os} (${e.arch})`,
      `- Commit: ${e.commit ?? "unknown"}; date ${e.date}`,
      `- Timing: ${report.timing.warmupMs} ms warm-up + ${report.timing.timeMs} ms per case, ` +
        `≥ ${report.timing.minSamples} batches; total ${formatDuration(report.durationMs)} ` +
        `for ${report.cases.length} cases`,
    ].join("\n"),
  );
  return `${out.join("\n").trimEnd()}\n`;
}

/**
 * The largest p50 change on block-sized payloads (mean item ≥ 32 KiB): run-to-run drift
 * when the baseline is the same code run just before.
 */
export function blockDrift(report: BenchReport): string {
  const cmp = report.comparison;
  if (!cmp) return "";
  const block = report.payloads
    .filter((p) => p.bytes / Math.max(1, p.items) >= BLOCK_SIZED_BYTES)
    .map((p) => p.name);
  const rows = cmp.rows.filter((r) => block.includes(r.payload));
  if (rows.length === 0) return "No block-sized payloads (mean item ≥ 32 KiB) in both runs.";
  const worst = rows.reduce((a, b) =>
    Math.abs(b.deltaPercent) > Math.abs(a.deltaPercent) ? b : a,
  );
  const within = rows.filter((r) => Math.abs(r.deltaPercent) <= cmp.thresholdPercent).length;
  const median = [...rows.map((r) => Math.abs(r.deltaPercent))].sort((a, b) => a - b)[
    (rows.length - 1) >> 1
  ]!;
  return (
    `Block-sized payloads (${block.join(", ")}): ${within} of ${rows.length} cases within ` +
    `±${cmp.thresholdPercent} %, median |change| ${median.toFixed(1)} %, largest ` +
    `${formatPercent(worst.deltaPercent)} (${worst.key}).`
  );
}

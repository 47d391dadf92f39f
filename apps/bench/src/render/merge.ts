// merge.md and the terminal's view of `bench merge`: a column group per run, labelled from its
// environment; per case the ratio to that run's reference and the codec's rank, then whether
// the runs agree on the row's order.
import type { MergedCell, MergeReport } from "../model/merge.js";
import { levelText } from "./levels.js";
import { formatRatio, formatTime } from "./numbers.js";
import { markdownTable, type Table, textTable, type View, wrapText } from "./table.js";

const cellText = (cell: MergedCell | null) => {
  if (!cell) return "—";
  const ratio =
    cell.ratio === undefined
      ? formatTime(cell.p50)
      : cell.ratioCi
        ? `${formatRatio(cell.ratio)} [${cell.ratioCi.low.toFixed(2)}, ${cell.ratioCi.high.toFixed(2)}]`
        : formatRatio(cell.ratio);
  return `${ratio} #${cell.rank}`;
};

/** Rows codec × payload × op; per run "ratio [interval] #rank"; the last column the agreement. */
export function mergeTable(report: MergeReport): Table {
  return {
    headers: [
      "payload",
      "op",
      "codec",
      ...report.runs.map((r, i) => `${i + 1}: ÷ ${r.reference}, rank`),
      "runs agree",
    ],
    align: ["l", "l", "l", ...report.runs.map(() => "r" as const), "l"],
    rows: report.cases.map((c) => [
      { text: c.payload },
      { text: c.op },
      { text: c.codec },
      ...c.cells.map((cell) => ({ text: cellText(cell), strong: cell?.fastest === true })),
      { text: c.agrees ? "yes" : `no: swaps with ${c.swapsWith.join(", ")}`, strong: !c.agrees },
    ]),
  };
}

/** The runs, one line each, numbered as the table's columns. */
function runLines(report: MergeReport): string[] {
  return report.runs.map(
    (r, i) =>
      `${i + 1}. **${r.label}**: \`${r.file}\` (\`${r.command}\`, ${r.date.slice(0, 16).replace("T", " ")} UTC, commit ${r.commit?.slice(0, 12) ?? "unknown"}, ${r.mode} mode, ${r.forks} forks; ${r.machine})`,
  );
}

/** How many cases the runs agree on. */
const agreement = (report: MergeReport) => {
  const shared = report.cases.filter((c) => c.cells.every((x) => x !== null));
  return `The runs agree on the order of ${shared.filter((c) => c.agrees).length} of the ${shared.length} cases every run timed.`;
};

/** merge.md. */
export function renderMergeMarkdown(report: MergeReport): string {
  const levels = levelText(report.cases.flatMap((c) => c.cells.map((x) => x?.ratioCi)));
  return `${[
    "# Snappy for JavaScript: runs side by side",
    "",
    `\`${report.command}\` · merged ${report.date.slice(0, 16).replace("T", " ")} UTC`,
    "",
    ...runLines(report),
    "",
    agreement(report),
    "",
    `Each cell: the codec's time as a multiple of its run's reference, per fork, with its interval (${levels}), and its rank in the row by median time (#1 = fastest); **bold** = tied for fastest in that run. Times from different machines are not compared with each other; each run's order is. Runs agree: ${report.method}.`,
    "",
    markdownTable(mergeTable(report)),
  ].join("\n")}\n`;
}

/** The terminal's view: the runs and the cases the runs disagree on. */
export function renderMergeTerminal(report: MergeReport, view: View): string {
  const table = mergeTable(report);
  const differ = table.rows.filter((row) => row.at(-1)?.text !== "yes");
  return [
    ...runLines(report).map((l) => wrapText(l.replaceAll("**", ""), view.width)),
    wrapText(agreement(report), view.width),
    ...(differ.length > 0 ? ["", textTable({ ...table, rows: differ }, view)] : []),
  ].join("\n");
}

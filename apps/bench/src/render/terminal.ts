// What the terminal shows at the end of a run: the headline and the main tables.
import type { BenchReport } from "../model/report.js";
import { comparisonSummary, comparisonTable } from "./comparison.js";
import { reportLevels } from "./levels.js";
import { reqrespAnswer, reqrespTable } from "./reqresp.js";
import { type Table, textTable, type View, wrapText } from "./table.js";
import {
  allocationTable,
  overheadTable,
  relativeTable,
  sizeTable,
  speedTable,
  unavailableTable,
} from "./tables.js";
import { headline, loadWarning } from "./text.js";

/** The run's main tables for the terminal. */
export function renderTerminal(report: BenchReport, view: View): string {
  const { colour } = view;
  const warning = loadWarning(report.environment);
  const out: string[] = [
    wrapText(headline(report), view.width),
    ...(warning ? [wrapText(warning, view.width)] : []),
    "",
  ];
  const add = (title: string, table: Table | undefined) => {
    if (!table || table.rows.length === 0) return;
    const fitted = wrapText(title, view.width);
    out.push(colour ? `\x1b[1m${fitted}\x1b[22m` : fitted, textTable(table, view), "");
  };
  const best = colour ? "bold" : "*";
  const levels = reportLevels(report);
  add(
    `Relative to ${report.reference}, time ÷ ${report.reference}'s [${levels.ratios} interval] (${best} = fastest or tied)`,
    relativeTable(report),
  );
  add(`Time per op ± ${levels.cases} interval (${best} = fastest or tied)`, speedTable(report));
  add(`Compressed bytes (ratio) (${best} = smallest)`, sizeTable(report));
  add(`Allocated per op, JS heap / external (${best} = least)`, allocationTable(report));
  add(
    `Req/resp: framed implementations, time ± ${levels.cases} interval, peak external memory (${best} = fastest or tied, least)`,
    reqrespTable(report),
  );
  const answer = reqrespAnswer(report);
  if (answer.length > 0) out.push(...answer.map((line) => wrapText(line, view.width)), "");
  add("Adapter overhead (library direct vs through adapter)", overheadTable(report));
  add("Unavailable codecs", unavailableTable(report));
  const table = comparisonTable(report);
  if (report.compared && table) {
    const changed = table.rows.filter(
      (row) => !row.at(-1)?.text.startsWith("no significant change"),
    );
    out.push(
      colour
        ? `\x1b[1mCompared with ${report.compared.baseline}\x1b[22m`
        : `Compared with ${report.compared.baseline}`,
      ...comparisonSummary(report).map((line) => wrapText(line, view.width)),
      "",
    );
    if (changed.length > 0) out.push(textTable({ ...table, rows: changed }, view), "");
  }
  return out.join("\n");
}

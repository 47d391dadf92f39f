// What the terminal shows at the end of a run: the headline and the main tables.
import type { BenchReport } from "../model/report.js";
import { comparisonSummary, comparisonTable } from "./comparison.js";
import { reportLevels } from "./levels.js";
import { type Table, textTable, type View } from "./table.js";
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
export function renderTerminal(report: BenchReport, { colour }: View): string {
  const warning = loadWarning(report.environment);
  const out: string[] = [headline(report), ...(warning ? [warning] : []), ""];
  const add = (title: string, table: Table | undefined) => {
    if (!table || table.rows.length === 0) return;
    out.push(colour ? `\x1b[1m${title}\x1b[22m` : title, textTable(table, colour), "");
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
      ...comparisonSummary(report),
      "",
    );
    if (changed.length > 0) out.push(textTable({ ...table, rows: changed }, colour), "");
  }
  return out.join("\n");
}

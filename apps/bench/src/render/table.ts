// Tables as data, and as text: GitHub Markdown for the files, aligned columns for the
// terminal. Every report's tables (bench, sweep, soak) go through here.
import { markdownTable as renderTable } from "@snappykit/workspace/format";

/** How the output is seen: on a terminal that shows bold (ANSI) or as plain text. */
export interface View {
  readonly colour: boolean;
}

/** One table cell; `strong` marks the best of its row. */
export interface Cell {
  readonly text: string;
  readonly strong?: boolean;
}

/** A rectangular table; `align` per column ("r" for numbers). */
export interface Table {
  readonly headers: readonly string[];
  readonly align: readonly ("l" | "r")[];
  readonly rows: readonly (readonly Cell[])[];
}

/** A table as GitHub Markdown (strong cells in bold), padded so it also reads as plain text. */
export function markdownTable(table: Table): string {
  const rows = table.rows.map((row) =>
    row.map((cell) => (cell.strong ? `**${cell.text}**` : cell.text)),
  );
  return renderTable(table.headers, table.align, rows);
}

/** A table as aligned plain text; strong cells in ANSI bold when `colour`. */
export function textTable(table: Table, colour: boolean): string {
  const cells = [table.headers.map((h) => ({ text: h, strong: false })), ...table.rows];
  const widths = table.headers.map((_, i) =>
    Math.max(...cells.map((row) => [...(row[i]?.text ?? "")].length)),
  );
  const lines = cells.map((row) =>
    row
      .map((cell, i) => {
        const fill = " ".repeat(widths[i]! - [...cell.text].length);
        const text = cell.strong && colour ? `\x1b[1m${cell.text}\x1b[22m` : cell.text;
        const marked = cell.strong && !colour ? `${text}*` : text;
        return table.align[i] === "r" ? fill + marked : marked + fill;
      })
      .join("  "),
  );
  lines.splice(1, 0, widths.map((w) => "─".repeat(w)).join("  "));
  return lines.join("\n");
}

// Tables as data, and as text: GitHub Markdown for the files, aligned columns for the
// terminal. Every report's tables (bench, sweep, soak) go through here.
import { markdownTable as renderTable } from "@snappykit/workspace/format";

/**
 * How the output is seen: on a terminal that shows bold (ANSI) or as plain text, and how
 * many columns wide (a terminal's `columns`; unlimited in a file or a pipe).
 */
export interface View {
  readonly colour: boolean;
  readonly width?: number;
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

/** A cell as Markdown: strong in bold. */
export const cellText = (cell: Cell) => (cell.strong ? `**${cell.text}**` : cell.text);

/** A table as GitHub Markdown (strong cells in bold), padded so it also reads as plain text. */
export function markdownTable(table: Table): string {
  const rows = table.rows.map((row) => row.map(cellText));
  return renderTable(table.headers, table.align, rows);
}

/**
 * A table as aligned plain text; strong cells in ANSI bold when `colour`. Wider than the
 * view, it is split into parts of whole columns, one under the other, each repeating the
 * label columns (the leading left-aligned ones: payload, op…) so every part reads alone.
 */
export function textTable(
  table: Table,
  { colour, width = Number.POSITIVE_INFINITY }: View,
): string {
  const cells = [table.headers.map((h) => ({ text: h, strong: false })), ...table.rows];
  // Without colour a strong cell is marked by a trailing "*", which takes a column too.
  const shown = (cell: Cell | undefined) =>
    [...(cell?.text ?? "")].length + (cell?.strong && !colour ? 1 : 0);
  const widths = table.headers.map((_, i) => Math.max(...cells.map((row) => shown(row[i]))));
  const lineWidth = (cols: readonly number[]) =>
    cols.reduce((n, i) => n + widths[i]!, 0) + 2 * (cols.length - 1);
  const all = widths.map((_, i) => i);
  if (lineWidth(all) <= width) return lines(cells, table.align, widths, all, colour);
  const leading = table.align.findIndex((a) => a !== "l");
  let keys = leading > 0 ? leading : 1;
  // One label column only, when all of them and the widest other column would not fit.
  const widest = Math.max(...all.slice(keys).map((i) => widths[i]!));
  if (lineWidth(all.slice(0, keys)) + 2 + widest > width) keys = 1;
  const rest = all.slice(keys);
  const label = all.slice(0, keys);
  const parts: number[][] = [];
  for (const i of rest) {
    const part = parts.at(-1);
    if (part && lineWidth([...label, ...part, i]) <= width) part.push(i);
    else parts.push([i]);
  }
  return parts
    .map((part) => lines(cells, table.align, widths, [...label, ...part], colour))
    .join("\n\n");
}

function lines(
  cells: readonly (readonly Cell[])[],
  align: Table["align"],
  widths: readonly number[],
  cols: readonly number[],
  colour: boolean,
): string {
  const out = cells.map((row) =>
    cols
      .map((i) => {
        const cell = row[i] ?? { text: "" };
        const marked = cell.strong
          ? colour
            ? `\x1b[1m${cell.text}\x1b[22m`
            : `${cell.text}*`
          : cell.text;
        const fill = " ".repeat(
          widths[i]! - [...cell.text].length - (cell.strong && !colour ? 1 : 0),
        );
        return align[i] === "r" ? fill + marked : marked + fill;
      })
      .join("  ")
      .trimEnd(),
  );
  out.splice(1, 0, cols.map((i) => "─".repeat(widths[i]!)).join("  "));
  return out.join("\n");
}

/** `text` broken at spaces into lines of at most `width` columns (a longer word stays whole). */
export function wrapText(text: string, width = Number.POSITIVE_INFINITY): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line === "" ? word : `${line} ${word}`;
    if ([...next].length > width && line !== "") {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  return [...lines, line].join("\n");
}

// How every report in the repository writes sizes, durations and tables, so the bench, the
// fuzzer and the scripts say the same thing the same way.

/** Bytes as B / KiB / MiB / GiB with up to three significant figures: "97.8 KiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return "n/a";
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toPrecision(3)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toPrecision(3)} MiB`;
  return `${(bytes / 1024 ** 3).toPrecision(3)} GiB`;
}

/** Milliseconds of a run, to the second: "1 min 23 s", "42 s" ("min", the SI symbol). */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

const escapeCell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");
const width = (s: string) => [...s].length;

/**
 * A GitHub Markdown table, columns padded (the layout biome's Markdown formatter keeps, so
 * a committed report passes `biome check` as written, and it reads well as plain text).
 * `align` is "l" or "r" per column; `|` and newlines in cells are escaped.
 */
export function markdownTable(
  headers: readonly string[],
  align: readonly ("l" | "r")[],
  rows: readonly (readonly string[])[],
): string {
  const cells = [headers, ...rows].map((row) => headers.map((_, i) => escapeCell(row[i] ?? "")));
  const widths = headers.map((_, i) => Math.max(3, ...cells.map((row) => width(row[i]!))));
  const pad = (s: string, i: number) => {
    const fill = " ".repeat(widths[i]! - width(s));
    return align[i] === "r" ? fill + s : s + fill;
  };
  const line = (row: readonly string[]) => `| ${row.map(pad).join(" | ")} |`;
  const rule = widths.map((w, i) => (align[i] === "r" ? `${"-".repeat(w - 1)}:` : "-".repeat(w)));
  return [line(cells[0]!), `| ${rule.join(" | ")} |`, ...cells.slice(1).map(line)].join("\n");
}

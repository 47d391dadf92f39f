// merge.svg: one heat map per run, side by side: rows payload × op, columns codecs, each cell
// the codec's ratio to its run's reference, coloured by how many times slower it is than the
// row's fastest in that run (the payload chart's viridis scale); a cell whose codec the runs
// do not agree on is outlined in red.
import type { MergeReport } from "../model/merge.js";
import { formatRatio } from "./numbers.js";
import { colourFor, esc } from "./svg.js";

/** Render the runs' heat maps as one standalone SVG document. */
export function renderMergeSvg(report: MergeReport): string {
  const codecs = [...new Set(report.cases.map((c) => c.codec))].sort();
  const rows = [...new Map(report.cases.map((c) => [`${c.payload}\u0000${c.op}`, c])).values()];
  const labelW = 280;
  const cellW = 64;
  const cellH = 20;
  const groupW = codecs.length * cellW + 16;
  const top = 104;
  const width = labelW + report.runs.length * groupW + 10;
  const height = top + rows.length * cellH + 20;
  const body: string[] = [];
  report.runs.forEach((run, r) => {
    const x0 = labelW + r * groupW;
    body.push(
      `<text x="${x0}" y="${top - 34}" class="group">${esc(`${r + 1}: ${run.label}`)}</text>`,
    );
    // Long ids break at their last hyphen ("napi" / "external"), so no header runs into the next.
    codecs.forEach((id, i) => {
      const cut = id.lastIndexOf("-");
      const parts = cut > 0 ? [id.slice(0, cut), id.slice(cut + 1)] : [id];
      parts.forEach((part, k) => {
        body.push(
          `<text x="${x0 + i * cellW + cellW / 2}" y="${top - 8 - (parts.length - 1 - k) * 12}" class="codec" text-anchor="middle">${esc(part)}</text>`,
        );
      });
    });
  });
  rows.forEach((row, j) => {
    const y = top + j * cellH;
    body.push(
      `<text x="${labelW - 8}" y="${y + 14}" class="label" text-anchor="end">${esc(`${row.payload} · ${row.op}`)}</text>`,
    );
    report.runs.forEach((_, r) => {
      const inRow = report.cases.filter((c) => c.payload === row.payload && c.op === row.op);
      const best = Math.min(...inRow.map((c) => c.cells[r]?.p50 ?? Number.POSITIVE_INFINITY));
      codecs.forEach((id, i) => {
        const x = labelW + r * groupW + i * cellW;
        const c = inRow.find((k) => k.codec === id);
        const cell = c?.cells[r];
        if (!c || !cell) {
          body.push(
            `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" class="none"/>`,
          );
          return;
        }
        const f = cell.p50 / best;
        const text = cell.ratio === undefined ? `#${cell.rank}` : formatRatio(cell.ratio);
        body.push(
          `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" fill="${colourFor(f)}"${c.agrees ? "" : ' class="swap"'}><title>${esc(`${id} · ${row.payload} · ${row.op} · run ${r + 1}: ${text}, rank ${cell.rank}${c.agrees ? "" : `; swaps with ${c.swapsWith.join(", ")}`}`)}</title></rect>`,
          `<text x="${x + cellW / 2}" y="${y + 14}" class="${f >= 4 ? "cell dark" : "cell"}" text-anchor="middle">${esc(text)}</text>`,
        );
      });
    });
  });
  const title =
    "Snappy runs side by side: time ÷ each run's reference, coloured by times the row's fastest";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" role="img" aria-labelledby="chart-title">
<title id="chart-title">${esc(title)}</title>
<style>
.title{font-size:15px;font-weight:600;fill:#0f172a}.sub{font-size:11px;fill:#475569}
.group{font-size:12px;font-weight:600;fill:#0f172a}.label{font-size:11px;fill:#334155}
.codec{font-size:10px;font-weight:600;fill:#0f172a}.cell{font-size:10px;fill:#111827}.dark{fill:#ffffff}
.none{fill:#f1f5f9}.swap{stroke:#dc2626;stroke-width:2}
</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="22" class="title">${esc(title)}</text>
<text x="10" y="40" class="sub">${esc(`Red outline: the runs disagree on that codec's place in its row. Merged ${report.date.slice(0, 10)}.`)}</text>
${body.join("\n")}
</svg>
`;
}

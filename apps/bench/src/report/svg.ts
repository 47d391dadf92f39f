// The SVG chart: a heat map, rows payload × op, columns codecs, each cell the codec's p50
// relative to the row's fastest (1× green → 8× and beyond red, log scale). One screen shows
// who wins where and by how much; hovering a cell gives the absolute time.
import { formatTime } from "./format.js";
import type { BenchReport } from "./json.js";
import { codecColumns, payloadLabel, rowCases, rowKeys } from "./tables.js";

const esc = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

/** Factor at which the colour scale saturates (red). */
export const CAP = 8;

/** Cell colour for a factor ≥ 1: green at 1×, through yellow, to red at {@link CAP}×. */
export function colourFor(factor: number): string {
  const t = Math.min(1, Math.log2(Math.max(1, factor)) / Math.log2(CAP));
  return `hsl(${Math.round(130 * (1 - t))}, 70%, ${Math.round(70 - 8 * t)}%)`;
}

/** Render the relative-time heat map as a standalone SVG document. */
export function renderSvg(report: BenchReport): string {
  const cols = codecColumns(report);
  const rows = rowKeys(report);
  const labelW = 340;
  const cellW = 80;
  const cellH = 22;
  const fastestW = 200;
  const top = 96;
  const width = labelW + cols.length * cellW + fastestW;
  const runtime = new Map(report.codecs.map((k) => [k.id, k.runtime]));

  const body: string[] = [];
  cols.forEach((id, i) => {
    const x = labelW + i * cellW + cellW / 2;
    body.push(
      `<text x="${x}" y="${top - 18}" class="codec" text-anchor="middle">${esc(id)}</text>`,
      `<text x="${x}" y="${top - 6}" class="axis" text-anchor="middle">${esc(runtime.get(id) ?? "")}</text>`,
    );
  });
  let y = top;
  let previous = "";
  for (const { payload, op } of rows) {
    if (payload !== previous && previous !== "") {
      body.push(`<line x1="10" y1="${y + 3}" x2="${width - 10}" y2="${y + 3}" class="sep"/>`);
      y += 6;
    }
    const cases = rowCases(report, payload, op);
    const best = Math.min(...[...cases.values()].map((r) => r.p50));
    const winner = [...cases.values()].find((r) => r.p50 === best)!;
    if (payload !== previous) {
      body.push(
        `<text x="10" y="${y + 15}" class="group">${esc(payloadLabel(report, payload))}</text>`,
      );
    }
    body.push(
      `<text x="${labelW - 8}" y="${y + 15}" class="label" text-anchor="end">${esc(op)}</text>`,
    );
    cols.forEach((id, i) => {
      const x = labelW + i * cellW;
      const r = cases.get(id);
      if (!r) {
        body.push(
          `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" class="none"/>`,
        );
        return;
      }
      const f = r.p50 / best;
      body.push(
        `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" fill="${colourFor(f)}"${f === 1 ? ' class="best"' : ""}><title>${esc(`${id} · ${payload} · ${op}: ${formatTime(r.p50)} (${f.toFixed(2)}× the fastest)`)}</title></rect>`,
        `<text x="${x + cellW / 2}" y="${y + 15}" class="${f === 1 ? "cell fastest" : "cell"}" text-anchor="middle">${f === 1 ? "1×" : f >= 10 ? `${Math.round(f)}×` : `${f.toFixed(1)}×`}</text>`,
      );
    });
    body.push(
      `<text x="${labelW + cols.length * cellW + 10}" y="${y + 15}" class="label">${esc(`${winner.codec} ${formatTime(best)}`)}</text>`,
    );
    previous = payload;
    y += cellH;
  }

  // Legend: the colour scale from 1× to CAP×.
  const legend: string[] = [];
  const steps = [1, 1.5, 2, 3, 4, 6, CAP];
  steps.forEach((f, i) => {
    const x = width - 10 - (steps.length - i) * 44;
    legend.push(
      `<rect x="${x}" y="40" width="42" height="14" fill="${colourFor(f)}"/>`,
      `<text x="${x + 21}" y="66" class="axis" text-anchor="middle">${f === CAP ? `≥${f}` : f}×</text>`,
    );
  });

  const e = report.environment;
  const title = "Snappy time per op relative to the fastest codec of each row (p50)";
  const height = y + 16;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" role="img" aria-labelledby="chart-title">
<title id="chart-title">${title}</title>
<style>
.title{font-size:15px;font-weight:600;fill:#0f172a}.sub{font-size:11px;fill:#475569}
.group{font-size:12px;font-weight:600;fill:#0f172a}.label{font-size:11px;fill:#334155}
.codec{font-size:11px;font-weight:600;fill:#0f172a}.axis{font-size:10px;fill:#64748b}
.cell{font-size:11px;fill:#111827}.fastest{font-weight:700}
.best{stroke:#14532d;stroke-width:2}.none{fill:#f1f5f9}.sep{stroke:#cbd5e1;stroke-width:1}
</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="22" class="title">${title}</text>
<text x="10" y="40" class="sub">${esc(`1× = fastest (outlined; its time on the right), lower is better; hover a cell for its time. ${report.mode} run, ${report.timing.clock ?? "wall"} clock.`)}</text>
<text x="10" y="56" class="sub">${esc(`${e.cpu} × ${e.cores} · Node ${e.node} · ${e.date.slice(0, 10)} · commit ${(e.commit ?? "unknown").slice(0, 12)}`)}</text>
${legend.join("\n")}
${body.join("\n")}
</svg>
`;
}

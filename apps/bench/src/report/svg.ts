// The SVG chart: for each payload and op, every codec's p50 relative to the fastest, so a
// reader sees at a glance who wins and by how much. Bars share one linear scale (fastest
// = 1×); bars beyond the cap are cut and marked, their true factor printed beside them.
import { formatTime } from "./format.js";
import type { BenchReport } from "./json.js";
import { codecColumns, payloadLabel, rowCases, rowKeys } from "./tables.js";

const RUNTIME_COLOURS: Record<string, string> = {
  native: "#2563eb",
  wasm: "#9333ea",
  js: "#ea580c",
};
const FALLBACK_COLOUR = "#64748b";

const esc = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

/** Factor beyond which bars are cut (keeps a 50× outlier from flattening everything). */
export const CAP = 8;

/** Render the relative-time chart as a standalone SVG document. */
export function renderSvg(report: BenchReport): string {
  const width = 860;
  const labelW = 120;
  const valueW = 150;
  const barMax = width - labelW - valueW - 30;
  const barH = 14;
  const gap = 3;
  const groupGap = 16;
  const headH = 20;
  const cols = codecColumns(report);
  const runtime = new Map(report.codecs.map((k) => [k.id, k.runtime]));
  const scale = (f: number) => (Math.min(f, CAP) / CAP) * barMax;

  const body: string[] = [];
  let y = 70;
  for (const { payload, op } of rowKeys(report)) {
    const cases = rowCases(report, payload, op);
    const best = Math.min(...[...cases.values()].map((r) => r.p50));
    body.push(
      `<text x="10" y="${y + 14}" class="group">${esc(payloadLabel(report, payload))} · ${esc(op)}</text>`,
    );
    y += headH;
    for (const id of cols) {
      const r = cases.get(id);
      if (!r) continue;
      const f = r.p50 / best;
      const w = Math.max(1.5, scale(f));
      const colour = RUNTIME_COLOURS[runtime.get(id) ?? ""] ?? FALLBACK_COLOUR;
      body.push(
        `<text x="${labelW}" y="${y + barH - 3}" class="codec" text-anchor="end">${esc(id)}</text>`,
        `<rect x="${labelW + 8}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${colour}"${f === 1 ? "" : ' fill-opacity="0.75"'}><title>${esc(`${id}: ${formatTime(r.p50)} (${f.toFixed(2)}× fastest)`)}</title></rect>`,
      );
      if (f > CAP) {
        const x = labelW + 8 + w;
        body.push(
          `<path d="M${x - 6} ${y} l4 ${barH / 2} l-4 ${barH / 2}" stroke="#fff" stroke-width="2" fill="none"/>`,
        );
      }
      body.push(
        `<text x="${labelW + 16 + w}" y="${y + barH - 3}" class="${f === 1 ? "best" : "value"}">${f === 1 ? "fastest" : `${f.toFixed(2)}×`} · ${esc(formatTime(r.p50))}</text>`,
      );
      y += barH + gap;
    }
    y += groupGap;
  }

  // Grid lines at whole factors, drawn under the bars.
  const grid: string[] = [];
  for (let f = 1; f <= CAP; f++) {
    const x = labelW + 8 + scale(f);
    grid.push(
      `<line x1="${x.toFixed(1)}" y1="58" x2="${x.toFixed(1)}" y2="${y - groupGap}" class="grid"/>`,
      `<text x="${x.toFixed(1)}" y="54" class="axis" text-anchor="middle">${f}×</text>`,
    );
  }
  const legend = Object.entries(RUNTIME_COLOURS)
    .map(
      ([name, colour], i) =>
        `<rect x="${width - 250 + i * 80}" y="12" width="12" height="12" fill="${colour}"/><text x="${width - 234 + i * 80}" y="22" class="axis">${name}</text>`,
    )
    .join("");
  const e = report.environment;
  const height = y + 10;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">
<style>
.title{font-size:15px;font-weight:600;fill:#0f172a}.sub{font-size:11px;fill:#475569}
.group{font-size:12px;font-weight:600;fill:#0f172a}.codec{font-size:11px;fill:#334155}
.value{font-size:11px;fill:#334155}.best{font-size:11px;font-weight:600;fill:#15803d}
.axis{font-size:10px;fill:#64748b}.grid{stroke:#e2e8f0;stroke-width:1}
</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="22" class="title">Snappy time per op relative to the fastest codec (p50, shorter is faster)</text>
<text x="10" y="38" class="sub">${esc(`${e.cpu} × ${e.cores} · Node ${e.node} · ${e.date.slice(0, 10)} · ${report.mode} run · bars cut at ${CAP}×`)}</text>
${legend}
${grid.join("\n")}
${body.join("\n")}
</svg>
`;
}

// The SVG chart: a heat map, rows payload × op, columns codecs, each cell showing the
// codec's time and coloured by how many times slower it is than the fastest codec on that
// payload in that direction (compress and compress-async share one yardstick, so a 40 µs
// thread-pool row does not look as good as a 0.7 µs sync one). Viridis, which colour-blind
// readers can tell apart; cells tied for fastest (within the interval) are outlined.
import type { BenchReport } from "../model/report.js";
import { reportLevels } from "./levels.js";
import { formatTime } from "./numbers.js";
import { codecColumns, payloadLabel, rowCases, rowKeys } from "./tables.js";
import { formatRuntime } from "./text.js";

const esc = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

/** Factor at which the colour scale saturates. */
export const CAP = 32;

// Viridis at 0, ¼, ½, ¾ and 1 (matplotlib's map), from fast (light) to slow (dark).
const VIRIDIS = [
  [253, 231, 37],
  [94, 201, 98],
  [33, 145, 140],
  [59, 82, 139],
  [68, 1, 84],
] as const;

/** Position 0…1 of a factor ≥ 1 on the log scale up to {@link CAP}. */
const position = (factor: number) => Math.min(1, Math.log2(Math.max(1, factor)) / Math.log2(CAP));

/** Cell colour for a factor ≥ 1: light yellow at 1×, through green and blue, to purple. */
export function colourFor(factor: number): string {
  const t = position(factor) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(t));
  const f = t - i;
  const [a, b] = [VIRIDIS[i]!, VIRIDIS[i + 1]!];
  const mix = (k: 0 | 1 | 2) => Math.round(a[k] + (b[k] - a[k]) * f);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** Dark cells get white text. */
const textOn = (factor: number) => (position(factor) > 0.45 ? "cell dark" : "cell");

/** compress and compress-async are one direction, measured against one yardstick. */
const direction = (op: string) => op.replace(/-async$/, "");

/** Render the heat map as a standalone SVG document. */
export function renderSvg(report: BenchReport): string {
  const cols = codecColumns(report);
  const rows = rowKeys(report);
  const labelW = 300;
  const cellW = 84;
  const cellH = 22;
  const fastestW = 330;
  const top = 128;
  // Wide enough for the header lines whatever the number of codecs.
  const width = Math.max(labelW + cols.length * cellW + fastestW, 760);
  const runtime = new Map(report.codecs.map((k) => [k.id, k.runtime]));
  const yardstick = new Map<string, number>();
  for (const c of report.cases) {
    if (c.impl !== "adapter" || !Number.isFinite(c.p50)) continue;
    const k = `${c.payload}\u0000${direction(c.op)}`;
    yardstick.set(k, Math.min(yardstick.get(k) ?? Number.POSITIVE_INFINITY, c.p50));
  }

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
    const best = yardstick.get(`${payload}\u0000${direction(op)}`)!;
    const fastest =
      report.relative.find((r) => r.payload === payload && r.op === op)?.fastest ?? [];
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
      if (!r || !Number.isFinite(r.p50)) {
        body.push(
          `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" class="none"/>`,
        );
        return;
      }
      const f = r.p50 / best;
      const tied = fastest.includes(id);
      body.push(
        `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" fill="${colourFor(f)}"${tied ? ' class="best"' : ""}><title>${esc(`${id} · ${payload} · ${op}: ${formatTime(r.p50)}${r.ci ? ` [${formatTime(r.ci.low)}, ${formatTime(r.ci.high)}]` : ""}, ${f.toFixed(2)}× the fastest ${direction(op)}`)}</title></rect>`,
        `<text x="${x + cellW / 2}" y="${y + 15}" class="${textOn(f)}${tied ? " fastest" : ""}" text-anchor="middle">${esc(formatTime(r.p50))}</text>`,
      );
    });
    body.push(
      `<text x="${labelW + cols.length * cellW + 10}" y="${y + 15}" class="label">${esc(
        fastest.length > 1 ? `tied: ${fastest.join(", ")}` : `fastest: ${fastest[0] ?? "—"}`,
      )}</text>`,
    );
    previous = payload;
    y += cellH;
  }

  // Legend on its own line under the subtitle: the colour scale from 1× to CAP×.
  const legend: string[] = [
    `<text x="10" y="88" class="axis">times the fastest on the payload, same direction:</text>`,
  ];
  const steps = [1, 2, 4, 8, 16, CAP];
  steps.forEach((f, i) => {
    const x = 270 + i * 46;
    legend.push(
      `<rect x="${x}" y="76" width="44" height="16" fill="${colourFor(f)}"/>`,
      `<text x="${x + 22}" y="88" class="${textOn(f)}" text-anchor="middle">${f === CAP ? `≥${f}` : f}×</text>`,
    );
  });

  const e = report.environment;
  const title = "Snappy time per op, coloured by times the fastest codec";
  const height = y + 16;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" role="img" aria-labelledby="chart-title">
<title id="chart-title">${title}</title>
<style>
.title{font-size:15px;font-weight:600;fill:#0f172a}.sub{font-size:11px;fill:#475569}
.group{font-size:12px;font-weight:600;fill:#0f172a}.label{font-size:11px;fill:#334155}
.codec{font-size:11px;font-weight:600;fill:#0f172a}.axis{font-size:10px;fill:#475569}
.cell{font-size:11px;fill:#111827}.dark{fill:#ffffff}.fastest{font-weight:700}
.best{stroke:#0f172a;stroke-width:2}.none{fill:#f1f5f9}.sep{stroke:#cbd5e1;stroke-width:1}
</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="22" class="title">${title}</text>
<text x="10" y="40" class="sub">${esc(`Median of ${report.timing.forks === 0 ? "1 in-process run" : `${report.timing.forks} forks`}; outlined = fastest or not distinguishable from it (${reportLevels(report).ratios} interval); hover a cell for its interval. ${report.mode} run, ${report.timing.clock ?? "wall"} clock.`)}</text>
<text x="10" y="56" class="sub">${esc(`${e.cpu} × ${e.cores} · ${formatRuntime(e)} · ${e.date.slice(0, 10)} · commit ${(e.commit ?? "unknown").slice(0, 12)}`)}</text>
${legend.join("\n")}
${body.join("\n")}
</svg>
`;
}

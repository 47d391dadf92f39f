// The SVG chart, made to be read in a README at GitHub's width (830 px, every text ≥ 11 px
// there: chart.test.ts checks it in Chromium): one panel per payload, rows codecs, columns
// ops, each cell the codec's time and, under it, its interval (an embedded image has no
// hover). A cell's colour says how many times slower it is than the fastest codec on that
// payload and op: async ops against the fastest async codec, as a thread-pool call is a
// different choice from a sync one. Viridis, which colour-blind readers can tell apart;
// cells tied for fastest (within the interval) are outlined.
import type { BenchReport } from "../model/report.js";
import { reportLevels } from "./levels.js";
import { formatTime } from "./numbers.js";
import { codecColumns, payloadLabel, rowCases, rowKeys } from "./tables.js";
import { formatRuntime } from "./text.js";

/** Text for an SVG attribute or element. */
export const esc = (s: string) =>
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

/** The width the chart is drawn at: GitHub's README column, so 1 unit is 1 px there. */
export const WIDTH = 830;

/** Render the heat map as a standalone SVG document. */
/** Ops side by side in one payload's panel: more would squeeze an interval past its cell. */
const OPS_PER_ROW = 4;

export function renderSvg(report: BenchReport): string {
  const cols = codecColumns(report);
  const keys = rowKeys(report);
  const payloads = [...new Set(keys.map((k) => k.payload))];
  const labelW = 150;
  const cellH = 32;
  const runtime = new Map(report.codecs.map((k) => [k.id, k.runtime]));
  const e = report.environment;

  const head: string[] = [];
  const line = (y: number, cls: string, text: string) =>
    head.push(`<text x="10" y="${y}" class="${cls}">${esc(text)}</text>`);
  line(24, "title", "Snappy time per op (lower is faster)");
  line(
    44,
    "sub",
    `Median of ${report.timing.forks === 0 ? "1 in-process run" : `${report.timing.forks} forks`} (child processes), ${report.mode} run, ${report.timing.clock ?? "wall"} clock; under each time, its ${reportLevels(report).cases} interval.`,
  );
  line(
    60,
    "sub",
    `Outlined: the fastest, or not distinguishable from it (${reportLevels(report).ratios} interval of the ratio).`,
  );
  line(
    76,
    "sub",
    `${e.cpu} × ${e.cores} · ${formatRuntime(e)} · ${e.date.slice(0, 10)} · commit ${(e.commit ?? "unknown").slice(0, 12)}`,
  );
  // Legend: the colour scale from 1× to CAP×.
  line(
    100,
    "sub",
    "Colour: times the fastest codec on that payload and op (async ops: the fastest async codec)",
  );
  [1, 2, 4, 8, 16, CAP].forEach((f, i) => {
    const x = 10 + i * 52;
    head.push(
      `<rect x="${x}" y="108" width="50" height="20" fill="${colourFor(f)}"/>`,
      `<text x="${x + 25}" y="122" class="${textOn(f)}" text-anchor="middle">${f === CAP ? `≥${f}` : f}×</text>`,
    );
  });

  const body: string[] = [];
  let y = 150;
  for (const payload of payloads) {
    const all = keys.filter((k) => k.payload === payload).map((k) => k.op);
    // At most OPS_PER_ROW ops side by side, so an interval fits its cell; a payload with
    // more (the gossip payloads' client-pattern and allocation rows) continues below.
    for (let from = 0; from < all.length; from += OPS_PER_ROW) {
      const ops = all.slice(from, from + OPS_PER_ROW);
      const rows = ops.map((op) => ({ op, cases: rowCases(report, payload, op) }));
      const codecs = cols.filter((id) => rows.some((r) => r.cases.has(id)));
      // The panel's ops share the width; long ids break at their last hyphen
      // ("compress" / "async") so no header runs into the next.
      const cellW = Math.min(170, Math.floor((WIDTH - 10 - labelW) / ops.length));
      if (from === 0) {
        body.push(
          `<text x="10" y="${y + 16}" class="group">${esc(payloadLabel(report, payload))}</text>`,
        );
        y += 24;
      }
      ops.forEach((op, j) => {
        const x = labelW + j * cellW + cellW / 2;
        const cut = op.lastIndexOf("-");
        const parts = cut > 0 ? [op.slice(0, cut), op.slice(cut + 1)] : [op];
        parts.forEach((part, k) => {
          body.push(
            `<text x="${x}" y="${y + 14 + k * 15}" class="op" text-anchor="middle">${esc(part)}</text>`,
          );
        });
      });
      y += 36;
      // Each op's own yardstick: its fastest codec on this payload.
      const best = rows.map((r) =>
        Math.min(...[...r.cases.values()].map((c) => c.p50).filter(Number.isFinite)),
      );
      const fastest = ops.map(
        (op) => report.relative.find((r) => r.payload === payload && r.op === op)?.fastest ?? [],
      );
      for (const id of codecs) {
        body.push(
          `<text x="10" y="${y + 20}" class="label">${esc(id)} <tspan class="axis">${esc(runtime.get(id) ?? "")}</tspan></text>`,
        );
        rows.forEach(({ op, cases }, j) => {
          const x = labelW + j * cellW;
          const r = cases.get(id);
          if (!r || !Number.isFinite(r.p50)) {
            body.push(
              `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" class="none"/>`,
            );
            return;
          }
          const f = r.p50 / best[j]!;
          const tied = fastest[j]!.includes(id);
          const interval = r.ci
            ? `${formatTime(r.ci.low)}–${formatTime(r.ci.high)}`
            : "no interval";
          body.push(
            `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" fill="${colourFor(f)}" data-codec="${esc(id)}" data-payload="${esc(payload)}" data-op="${esc(op)}"${tied ? ' class="best"' : ""}/>`,
            `<text x="${x + cellW / 2}" y="${y + 14}" class="${textOn(f)}${tied ? " fastest" : ""}" text-anchor="middle">${esc(formatTime(r.p50))}</text>`,
            `<text x="${x + cellW / 2}" y="${y + 27}" class="${textOn(f)} ci" text-anchor="middle">${esc(interval)}</text>`,
          );
        });
        y += cellH;
      }
    }
    y += 14;
  }

  const title = "Snappy time per op, per payload and op, coloured by times the fastest codec";
  const height = y;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" role="img" aria-labelledby="chart-title">
<title id="chart-title">${title}</title>
<style>
.title{font-size:17px;font-weight:600;fill:#0f172a}.sub{font-size:12px;fill:#475569}
.group{font-size:14px;font-weight:600;fill:#0f172a}.label{font-size:13px;fill:#0f172a}
.op{font-size:12px;font-weight:600;fill:#334155}.axis{font-size:11px;fill:#64748b}
.cell{font-size:12px;fill:#111827}.ci{font-size:11px}.dark{fill:#ffffff}.fastest{font-weight:700}
.best{stroke:#0f172a;stroke-width:2}.none{fill:#f1f5f9}
</style>
<rect width="100%" height="100%" fill="#fff"/>
${head.join("\n")}
${body.join("\n")}
</svg>
`;
}

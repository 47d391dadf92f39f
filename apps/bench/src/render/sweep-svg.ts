// The sweep chart: throughput (MB/s) against message size, log–log, one panel per op, one
// line per codec. Colour-blind safe: Okabe–Ito colours, and every codec also has its own
// marker, and the line's dash says its runtime (solid native, dashed wasm, dotted JS), so
// no reading depends on telling hues apart. Lines are labelled at their right end and the
// ts/napi and JS-vs-native crossovers are drawn with their intervals: readable without
// hovering, in a README.
import { formatBytes } from "@snappykit/workspace/format";
import type { SweepCrossover, SweepReport } from "../model/sweep.js";
import { crossoverInterval } from "./sweep-md.js";

const esc = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

// Okabe & Ito (2008) without yellow, which is too faint on white.
const OKABE_ITO = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7"];
const MARKERS = ["circle", "square", "triangle", "diamond", "down", "cross"] as const;
const DASH: Record<string, string> = { native: "", wasm: "7 4", js: "2 3" };

/** A marker centred on (x, y). */
function marker(kind: (typeof MARKERS)[number], x: number, y: number, colour: string): string {
  const r = 4;
  const p = (pts: [number, number][]) =>
    `<polygon points="${pts.map(([a, b]) => `${(x + a).toFixed(1)},${(y + b).toFixed(1)}`).join(" ")}" fill="${colour}"/>`;
  switch (kind) {
    case "circle":
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" fill="${colour}"/>`;
    case "square":
      return `<rect x="${(x - r).toFixed(1)}" y="${(y - r).toFixed(1)}" width="${2 * r}" height="${2 * r}" fill="${colour}"/>`;
    case "triangle":
      return p([
        [0, -r - 1],
        [r + 1, r],
        [-r - 1, r],
      ]);
    case "down":
      return p([
        [0, r + 1],
        [r + 1, -r],
        [-r - 1, -r],
      ]);
    case "diamond":
      return p([
        [0, -r - 1],
        [r + 1, 0],
        [0, r + 1],
        [-r - 1, 0],
      ]);
    case "cross":
      return `<path d="M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}" stroke="${colour}" stroke-width="2.5"/>`;
  }
}

/** Axis label of a power-of-two size: "64 B", "16 KiB", "4 MiB". */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1 << 20) return `${+(bytes / (1 << 20)).toPrecision(3)} MiB`;
  if (bytes >= 1 << 10) return `${+(bytes / (1 << 10)).toPrecision(3)} KiB`;
  return `${bytes} B`;
}

/** Ticks on a log10 axis: 1, 2, 5 × powers of ten within [lo, hi]. */
function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) out.push(v);
    }
  }
  return out;
}

/** Label positions pushed down where needed so no two are closer than `gap` (order kept). */
export function spreadLabels(ys: readonly number[], gap: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  const out = new Array<number>(ys.length);
  let last = Number.NEGATIVE_INFINITY;
  for (const o of order) {
    last = Math.max(o.y, last + gap);
    out[o.i] = last;
  }
  return out;
}

/** Render the sweep as a standalone SVG document. */
export function renderSweepSvg(report: SweepReport): string {
  const ops = [...new Set(report.points.map((p) => p.op))];
  const codecs = report.codecs;
  const style = new Map(
    codecs.map((c, i) => [
      c.id,
      {
        colour: OKABE_ITO[i % OKABE_ITO.length]!,
        marker: MARKERS[i % MARKERS.length]!,
        dash: DASH[c.runtime] ?? "",
      },
    ]),
  );
  const left = 80;
  const plotW = 640;
  const labelW = 120;
  const plotH = 340;
  const panelH = plotH + 110;
  const top = 70;
  const legendH = 30 + Math.ceil(codecs.length / 4) * 20;
  const width = left + plotW + labelW + 20;
  const height = top + ops.length * panelH + legendH;
  const sizes = report.sizes;
  const xMin = Math.log2(Math.min(...sizes));
  const xMax = Math.log2(Math.max(...sizes));
  const X = (size: number) => left + ((Math.log2(size) - xMin) / (xMax - xMin)) * plotW;
  const mbps = report.points.map((p) => p.mbps).filter((v) => v > 0);
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...mbps)));
  const yHi = 10 ** Math.ceil(Math.log10(Math.max(...mbps)));
  const e = report.environment;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<title>Snappy throughput by message size, one line per codec, with the ts/napi and JS/native crossovers</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="24" font-size="16" font-weight="600">Snappy throughput by message size (higher is faster)</text>`,
    `<text x="${left}" y="42" fill="#444">${esc(`${report.command} · ${e.date.slice(0, 10)} · Node ${e.node} · ${e.cores} cores · p50 of ${report.timing.forks} forks per point`)}</text>`,
    `<text x="${left}" y="58" fill="#444">Codec lines: solid = native, dashed = wasm, dotted = JS. Vertical rules: crossovers; shaded: their intervals.</text>`,
  ];
  ops.forEach((op, k) => {
    const y0 = top + k * panelH + 20;
    const Y = (v: number) =>
      y0 +
      plotH -
      ((Math.log10(v) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * plotH;
    out.push(`<text x="${left}" y="${y0 - 6}" font-size="14" font-weight="600">${esc(op)}</text>`);
    out.push(
      `<rect x="${left}" y="${y0}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
    );
    for (const t of logTicks(yLo, yHi)) {
      const y = Y(t).toFixed(1);
      out.push(
        `<line x1="${left}" x2="${left + plotW}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`,
        `<text x="${left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#333">${t >= 1 ? t : t.toPrecision(1)}</text>`,
      );
    }
    for (const s of sizes) {
      const x = X(s).toFixed(1);
      out.push(
        `<line x1="${x}" x2="${x}" y1="${y0}" y2="${y0 + plotH}" stroke="#eee"/>`,
        `<text x="${x}" y="${y0 + plotH + 16}" text-anchor="middle" fill="#333">${sizeLabel(s)}</text>`,
      );
    }
    out.push(
      `<text x="${left + plotW / 2}" y="${y0 + plotH + 36}" text-anchor="middle">message size (bytes, log scale)</text>`,
      `<text transform="translate(${left - 52} ${y0 + plotH / 2}) rotate(-90)" text-anchor="middle">MB/s (log scale)</text>`,
    );
    // Crossovers: ts vs napi and fastest JS/wasm vs fastest native, with interval bands.
    const marks = report.crossover.filter(
      (c) =>
        c.op === op && c.size !== null && (c.kind === "ts-vs-napi" || c.kind === "js-vs-native"),
    );
    marks.forEach((c: SweepCrossover, j) => {
      const lo = X(Math.max(c.ci?.low ?? Math.min(...sizes), Math.min(...sizes)));
      const hi = X(Math.min(c.ci?.high ?? Math.max(...sizes), Math.max(...sizes)));
      const x = X(c.size!).toFixed(1);
      const tone = c.kind === "ts-vs-napi" ? "#555" : "#999";
      if (c.ci) {
        out.push(
          `<rect x="${lo.toFixed(1)}" y="${y0}" width="${Math.max(1, hi - lo).toFixed(1)}" height="${plotH}" fill="${tone}" fill-opacity="0.1"/>`,
        );
      }
      out.push(
        `<line x1="${x}" x2="${x}" y1="${y0}" y2="${y0 + plotH}" stroke="${tone}" stroke-width="1.5" stroke-dasharray="${c.kind === "ts-vs-napi" ? "" : "5 3"}"/>`,
        `<text x="${left + 8}" y="${y0 + plotH + 56 + j * 15}" fill="#222">${esc(
          `${c.kind === "ts-vs-napi" ? "solid rule, ts vs napi" : `dashed rule, fastest JS/wasm (${c.codecs[0]}) vs fastest native (${c.codecs[1]})`}: equal at ~${formatBytes(c.size!)} ${crossoverInterval(c, sizes)}, ${c.fasterBelow} faster below`,
        )}</text>`,
      );
    });
    const lines = codecs
      .map((c) => ({
        c,
        pts: report.points
          .filter((p) => p.op === op && p.codec === c.id)
          .sort((a, b) => a.size - b.size),
      }))
      .filter((l) => l.pts.length > 0);
    for (const { c, pts } of lines) {
      const s = style.get(c.id)!;
      const d = pts
        .map((p, i) => `${i === 0 ? "M" : "L"}${X(p.size).toFixed(1)},${Y(p.mbps).toFixed(1)}`)
        .join("");
      out.push(
        `<path d="${d}" fill="none" stroke="${s.colour}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/>`,
        ...pts.map((p) => marker(s.marker, X(p.size), Y(p.mbps), s.colour)),
      );
    }
    // Labels at the right end, spread so they never overlap.
    const ends = lines.map((l) => Y(l.pts[l.pts.length - 1]!.mbps));
    const placed = spreadLabels(ends, 13);
    lines.forEach((l, i) => {
      const s = style.get(l.c.id)!;
      const yEnd = ends[i]!.toFixed(1);
      const yLab = placed[i]!.toFixed(1);
      out.push(
        `<line x1="${left + plotW + 2}" y1="${yEnd}" x2="${left + plotW + 14}" y2="${yLab}" stroke="${s.colour}"/>`,
        marker(s.marker, left + plotW + 20, placed[i]!, s.colour),
        `<text x="${left + plotW + 28}" y="${yLab}" dominant-baseline="middle" fill="${s.colour === "#E69F00" || s.colour === "#56B4E9" ? "#333" : s.colour}">${esc(l.c.id)}</text>`,
      );
    });
  });
  // Legend: marker, line style and runtime of each codec.
  const ly = top + ops.length * panelH + 10;
  codecs.forEach((c, i) => {
    const s = style.get(c.id)!;
    const x = left + (i % 4) * 170;
    const y = ly + Math.floor(i / 4) * 20;
    out.push(
      `<line x1="${x}" x2="${x + 30}" y1="${y}" y2="${y}" stroke="${s.colour}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/>`,
      marker(s.marker, x + 15, y, s.colour),
      `<text x="${x + 38}" y="${y}" dominant-baseline="middle">${esc(`${c.id} (${c.runtime})`)}</text>`,
    );
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

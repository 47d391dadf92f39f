// The sweep chart: throughput (MB/s) against message size, log–log, one panel per op, one
// line per codec. Colour-blind safe: Okabe–Ito colours, and every codec also has its own
// marker, and the line's dash says its runtime (solid native, dashed wasm, dotted JS), so
// no reading depends on telling hues apart. Lines are labelled at their right end and the
// ts/napi and JS-vs-native crossovers are drawn with their intervals: readable without
// hovering, in a README.
import { formatBytes } from "@snappykit/workspace/format";
import type { SweepReport } from "../model/sweep.js";
import { esc } from "./svg.js";
import { crossoverInterval } from "./sweep-md.js";
import { wrapText } from "./table.js";
import { runtimeLabel } from "./text.js";

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

/**
 * Label positions as near their lines' ends as they can be with no two closer than `gap`,
 * within [lo, hi]: overlapping labels gather into a block centred on their lines (each
 * block's positions the least squares' answer), order kept. Pushing labels only downward
 * put a label far from a line it shared a crowd with.
 */
export function spreadLabels(
  ys: readonly number[],
  gap: number,
  lo = Number.NEGATIVE_INFINITY,
  hi = Number.POSITIVE_INFINITY,
): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  const blocks: { members: { y: number; i: number }[]; top: number }[] = [];
  const place = (b: (typeof blocks)[number]) => {
    const n = b.members.length;
    const mean = b.members.reduce((s, m) => s + m.y, 0) / n;
    b.top = Math.min(Math.max(mean - ((n - 1) * gap) / 2, lo), hi - (n - 1) * gap);
  };
  for (const o of order) {
    const block = { members: [o], top: o.y };
    place(block);
    blocks.push(block);
    // Merge with the block above while they overlap.
    while (blocks.length > 1) {
      const below = blocks.at(-1)!;
      const above = blocks.at(-2)!;
      if (above.top + above.members.length * gap <= below.top + 1e-9) break;
      above.members.push(...below.members);
      blocks.pop();
      place(above);
    }
  }
  const out = new Array<number>(ys.length);
  for (const b of blocks) {
    b.members.forEach((m, k) => {
      out[m.i] = b.top + k * gap;
    });
  }
  return out;
}

/** The chart's width: GitHub's README column, so 1 unit is 1 px there. */
export const WIDTH = 830;

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
  const left = 66;
  const plotW = 500;
  const plotH = 420;
  const top = 92;
  const sizes = report.sizes;
  const xMin = Math.log2(Math.min(...sizes));
  const xMax = Math.log2(Math.max(...sizes));
  const X = (size: number) => left + ((Math.log2(size) - xMin) / (xMax - xMin)) * plotW;
  const mbps = report.points.map((p) => p.mbps).filter((v) => v > 0);
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...mbps)));
  const yHi = 10 ** Math.ceil(Math.log10(Math.max(...mbps)));
  const e = report.environment;
  const notes: string[][] = ops.map((op) => panelNotes(report, op));
  const panelH = (k: number) => plotH + 60 + notes[k]!.length * 17 + 24;
  const legendRows = Math.ceil(codecs.length / 4);
  const height = top + ops.reduce((h, _, k) => h + panelH(k), 0) + legendRows * 22 + 10;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<title>Snappy throughput by message size, one line per codec, with the ts/napi and JS/native crossovers and auto's thresholds</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="10" y="24" font-size="17" font-weight="600">Snappy throughput by message size (higher is faster)</text>`,
    `<text x="10" y="44" fill="#444">${esc(`${report.command} · ${e.date.slice(0, 10)} · ${e.runtime ? runtimeLabel(e.runtime) : `Node ${e.node}`} · ${e.cores} cores · median of ${report.timing.forks} forks per point`)}</text>`,
    `<text x="10" y="61" fill="#444">Lines: solid = native, dashed = wasm, dotted = JS. Grey rules: crossovers (shaded: their intervals).</text>`,
    `<text x="10" y="78" fill="#444">Purple rules: the sizes from which @snappykit/auto sends a call to native, per kind of data.</text>`,
  ];
  let y0 = top;
  ops.forEach((op, k) => {
    y0 += 20;
    const Y = (v: number) =>
      y0 +
      plotH -
      ((Math.log10(v) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * plotH;
    out.push(`<text x="${left}" y="${y0 - 6}" font-size="15" font-weight="600">${esc(op)}</text>`);
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
        `<text x="${x}" y="${y0 + plotH + 20}" text-anchor="middle" fill="#333">${sizeLabel(s)}</text>`,
      );
    }
    out.push(
      `<text x="${left + plotW / 2}" y="${y0 + plotH + 38}" text-anchor="middle">message size (bytes, log scale)</text>`,
      `<text transform="translate(${left - 48} ${y0 + plotH / 2}) rotate(-90)" text-anchor="middle">MB/s (log scale)</text>`,
    );
    // Crossovers: ts vs napi and fastest JS/wasm vs fastest native, with interval bands.
    for (const c of crossovers(report, op)) {
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
      );
    }
    // auto's thresholds: a purple rule per kind, named at the top of the plot.
    thresholdRules(report, op).forEach((t, j) => {
      const x = X(t.size);
      const right = x > left + plotW / 2;
      out.push(
        `<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${y0}" y2="${y0 + plotH}" stroke="${AUTO}" stroke-width="2" stroke-dasharray="8 3 2 3"/>`,
        `<text x="${(right ? x - 4 : x + 4).toFixed(1)}" y="${y0 + 15 + j * 16}" fill="${AUTO}"${right ? ' text-anchor="end"' : ""} class="threshold">${esc(`auto: ${t.kind} → native from ${formatBytes(t.size)}`)}</text>`,
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
    // Labels beside the lines' right ends, each tied to its line by a short leader. Many
    // lines end together (the napi variants), so labels take two columns, alternating top
    // to bottom: a crowd of n lines spreads its labels over n/2 rows, near their lines.
    const ends = lines.map((l) => Y(l.pts[l.pts.length - 1]!.mbps));
    const placed = spreadLabels(ends, LABEL_GAP / 2, y0 + 6, y0 + plotH + 30);
    const rank = placed.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
    rank.forEach(({ y, i }, r) => {
      const l = lines[i]!;
      const s = style.get(l.c.id)!;
      const x = left + plotW + 22 + (r % 2) * LABEL_COLUMN;
      const yEnd = ends[i]!.toFixed(1);
      out.push(
        `<line x1="${left + plotW + 2}" y1="${yEnd}" x2="${x - 7}" y2="${y.toFixed(1)}" stroke="${s.colour}" stroke-opacity="0.7"/>`,
        marker(s.marker, x, y, s.colour),
        `<text x="${x + 8}" y="${y.toFixed(1)}" dominant-baseline="middle" class="line-label" data-codec="${esc(l.c.id)}" data-end="${yEnd}" fill="${s.colour === "#E69F00" || s.colour === "#56B4E9" ? "#333" : s.colour}">${esc(l.c.id)}</text>`,
      );
    });
    notes[k]!.forEach((note, j) => {
      out.push(`<text x="${left}" y="${y0 + plotH + 56 + j * 17}" fill="#222">${esc(note)}</text>`);
    });
    y0 += panelH(k) - 20;
  });
  // Legend: marker, line style and runtime of each codec.
  const ly = y0 + 6;
  codecs.forEach((c, i) => {
    const s = style.get(c.id)!;
    const x = 10 + (i % 4) * 205;
    const y = ly + Math.floor(i / 4) * 22;
    out.push(
      `<line x1="${x}" x2="${x + 30}" y1="${y}" y2="${y}" stroke="${s.colour}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/>`,
      marker(s.marker, x + 15, y, s.colour),
      `<text x="${x + 38}" y="${y}" dominant-baseline="middle">${esc(`${c.id} (${c.runtime})`)}</text>`,
    );
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

/** Colour of auto's threshold rules (purple, apart from the Okabe–Ito line colours). */
const AUTO = "#7B2CBF";

/** Vertical distance between two line labels in one column (12 px text). */
const LABEL_GAP = 16;

/** Horizontal distance between the two columns of line labels. */
const LABEL_COLUMN = 128;

/** The crossovers drawn on an op's panel: ts vs napi, fastest JS/wasm vs fastest native. */
const crossovers = (report: SweepReport, op: string) =>
  report.crossover.filter(
    (c) => c.op === op && c.size !== null && (c.kind === "ts-vs-napi" || c.kind === "js-vs-native"),
  );

/** auto's thresholds for `op` inside the swept sizes (a `null` one: never native). */
function thresholdRules(report: SweepReport, op: string): { kind: string; size: number }[] {
  const t = report.auto?.thresholds[op as "compress" | "uncompress"];
  if (!t) return [];
  const [lo, hi] = [Math.min(...report.sizes), Math.max(...report.sizes)];
  return (["compressible", "incompressible"] as const).flatMap((kind) => {
    const size = t[kind];
    return size !== null && size >= lo && size <= hi ? [{ kind, size }] : [];
  });
}

/** The lines under an op's panel: what its rules are, in words and figures. */
function panelNotes(report: SweepReport, op: string): string[] {
  const notes = crossovers(report, op).map((c) =>
    c.kind === "ts-vs-napi"
      ? `Solid grey: ts = napi at ~${formatBytes(c.size!)} ${crossoverInterval(c, report.sizes)}; ${c.fasterBelow} faster below.`
      : `Dashed grey: fastest JS/wasm (${c.codecs[0]}) = fastest native (${c.codecs[1]}) at ~${formatBytes(c.size!)} ${crossoverInterval(c, report.sizes)}.`,
  );
  const t = report.auto?.thresholds[op as "compress" | "uncompress"];
  if (t && report.auto) {
    const at = (n: number | null) => (n === null ? "never" : `from ${formatBytes(n)}`);
    notes.push(
      `auto (${report.auto.source} thresholds, ${report.auto.provenance.date.slice(0, 10)}): native ${at(t.compressible)} on compressible data (block stream), ${at(t.incompressible)} on incompressible (sidecars).`,
    );
  }
  // About 110 characters of 12 px text fit under the plot.
  return notes.flatMap((n) => wrapText(n, 110).split("\n"));
}

// The SVG charts (bench.svg, sweep.svg, merge.svg), specified in Vega-Lite and drawn by Vega,
// sized for a README at GitHub's width (830 px, every text ≥ 11 px there: chart.test.ts
// checks it in Chromium). An embedded image has no hover, so every figure is written on it.
// Colour-blind safe: heat maps in viridis (light = fast), lines in Okabe–Ito colours with a
// marker per codec and a dash per runtime, so no reading depends on telling hues apart.
import { formatBytes } from "@snappykit/workspace/format";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { MergeReport } from "../model/merge.js";
import type { BenchReport } from "../model/report.js";
import type { SweepReport } from "../model/sweep.js";
import { reportLevels } from "./levels.js";
import { formatRatio, formatTime } from "./numbers.js";
import { crossoverInterval } from "./sweep-md.js";
import { wrapText } from "./table.js";
import { codecColumns, payloadLabel, rowCases, rowKeys } from "./tables.js";
import { formatRuntime, runtimeLabel } from "./text.js";

/** Factor at which the heat maps' colour scale saturates. */
export const CAP = 32;

const CONFIG = {
  font: "system-ui, -apple-system, Segoe UI, sans-serif",
  background: "#fff",
  padding: 10,
  title: { anchor: "start", fontSize: 17, subtitleFontSize: 12, subtitleColor: "#475569" },
  axis: { labelFontSize: 12, titleFontSize: 12, labelColor: "#334155" },
  axisBand: { ticks: false, domain: false, labelLimit: 0, labelColor: "#0f172a" },
  axisXBand: { labelFontWeight: 600, labelColor: "#334155" },
  text: { baseline: "middle", fontSize: 12 },
  legend: { labelFontSize: 12, titleFontSize: 12, labelLimit: 0 },
  view: { stroke: "#999" },
  concat: { spacing: 14 },
} as const;

/** Vega's SVG string renderer and the view's size, which vega's typings leave out. */
interface Headless {
  readonly SVGStringRenderer: new () => {
    initialize(el: null, w: number, h: number, origin: readonly number[]): Headless["r"];
  };
  readonly textMetrics: { width: (item: { fontSize?: number }, text?: string) => number };
  readonly r: { background(c: string): Headless["r"]; render(scene: unknown): { svg(): string } };
}

/**
 * A chart, `title` over `subtitle` (wrapped to the width) over `body` (concatenated views),
 * as a standalone SVG document described by `description`: what Vega's `toSVG()` does,
 * synchronously (the data is inline), as every renderer of a report returns its text.
 */
function toSvg(description: string, title: string, subtitle: string[], body: object): string {
  // Without a canvas Vega guesses a text's width as 0.8 em a character, which leaves wide
  // margins; 0.62 em is nearer the sans-serif faces a browser shows (chart.test.ts checks).
  (vega as unknown as Headless).textMetrics.width = (item, text) =>
    0.62 * `${text ?? ""}`.length * (item.fontSize ?? 11);
  const spec = { title: { text: title, subtitle: fit(subtitle) }, ...body, config: CONFIG };
  const view = new vega.View(vega.parse(compile(spec as TopLevelSpec).spec), { renderer: "none" });
  view.run();
  const size = view as unknown as { _viewWidth: number; _viewHeight: number };
  const p = view.padding() as { left: number; right: number; top: number; bottom: number };
  const [x, y] = view.origin();
  const [w, h] = [size._viewWidth + p.left + p.right, size._viewHeight + p.top + p.bottom];
  const svg = new (vega as unknown as Headless).SVGStringRenderer()
    .initialize(null, w, h, [p.left + x, p.top + y])
    .background("#fff")
    .render((view.scenegraph() as unknown as { root: unknown }).root)
    .svg();
  const head = `<svg role="img" `;
  return `${svg.replace(/^<svg /, head).replace(/>/, `><title>${esc(description)}</title>`)}\n`;
}

/** `texts` as lines of at most `width` characters (100 of 12 px text fill the chart's width). */
const fit = (texts: string[], width = 100) => texts.flatMap((t) => wrapText(t, width).split("\n"));

/** Text for an SVG element. */
const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;");

/** A heat-map cell: `factor` times its row's fastest (colour), one or two lines of text. */
interface Cell {
  readonly x: string;
  readonly y: string;
  readonly factor?: number;
  readonly text: string;
  readonly sub?: string;
  readonly outline?: boolean;
  readonly description: string;
}

/** Viridis from light (1×, fastest) to dark (≥ CAP× slower), on a log scale. */
const HEAT = {
  field: "factor",
  type: "quantitative",
  scale: { type: "log", domain: [1, CAP], scheme: "viridis", reverse: true, clamp: true },
  legend: {
    orient: "top",
    direction: "horizontal",
    title: null,
    gradientLength: 300,
    values: [1, 2, 4, 8, 16, CAP],
    labelExpr: `datum.value >= ${CAP} ? '≥${CAP}×' : datum.value + '×'`,
  },
} as const;

/** A heat map's layout: its columns and rows in order, their sizes, its title and outline. */
interface Panel {
  readonly xs: readonly string[];
  readonly ys: readonly string[];
  readonly step: number;
  readonly height: number;
  readonly title: string;
  readonly outline: string;
  readonly fontSize: number;
  /** Of the column labels: 0 when a label fits its column. */
  readonly angle: number;
  /** Whether the row labels are drawn (side by side, only the first panel's are). */
  readonly yAxis: boolean;
  /** Characters a column label's line holds. */
  readonly wrap: number;
}

/** One heat map: `cells` on x × y bands, each coloured by its factor (none: grey). */
function heatmap(cells: readonly Cell[], o: Panel) {
  // The main text in bold on outlined cells: a layer each, as text has no weight channel.
  const text = (field: "text" | "sub", dy: number, fontSize: number, bold?: boolean) => ({
    ...(bold !== undefined && { transform: [{ filter: `${bold ? "" : "!"}datum.outline` }] }),
    mark: { type: "text", dy, fontSize, fontWeight: bold ? 700 : 400 },
    encoding: {
      text: { field },
      color: { condition: { test: DARK, value: "#fff" }, value: "#111" },
    },
  });
  // A long column name (a req/resp op) wraps at its hyphens and colons; Vega draws the lines
  // of a label down from its anchor, so shorter ones start with blank lines and the padding
  // lifts them all over the panel.
  const lines = o.xs.map((x) =>
    wrapText(x.replace(/([:-])/g, "$1 "), o.wrap)
      .replaceAll(" ", "")
      .split("\n"),
  );
  const most = Math.max(...lines.map((l) => l.length));
  const labels = lines.map((l) => [...Array(most - l.length).fill(""), ...l]);
  const axis = {
    labelAngle: o.angle,
    labelFontSize: o.fontSize,
    orient: "top",
    labelExpr: `${JSON.stringify(labels)}[indexof(${JSON.stringify(o.xs)}, datum.value)]`,
    labelPadding: 3 + (most - 1) * (o.fontSize + 2),
  };
  return {
    title: { text: o.title, fontSize: 14 },
    view: { stroke: null },
    width: { step: o.step },
    height: { step: o.height },
    data: { values: cells },
    encoding: {
      x: { field: "x", type: "nominal", scale: { domain: o.xs }, title: null, axis },
      y: { field: "y", type: "nominal", scale: { domain: o.ys }, title: null, axis: o.yAxis && {} },
    },
    layer: [
      {
        mark: { type: "rect", width: { band: 0.98 }, height: { band: 0.94 }, strokeWidth: 2 },
        encoding: {
          color: { condition: { test: "datum.factor == null", value: "#f1f5f9" }, ...HEAT },
          stroke: { condition: { test: "datum.outline", value: o.outline }, value: null },
          description: { field: "description" },
        },
      },
      ...(cells.some((c) => c.sub)
        ? [text("text", -7, 12, true), text("text", -7, 12, false), text("sub", 8, 11)]
        : [text("text", 0, o.fontSize)]),
    ],
  };
}

/** Cells this dark get white text. */
const DARK = `datum.factor > ${Math.sqrt(CAP) * 0.8}`;

/**
 * The bench's chart: one panel per payload, rows codecs, columns ops, each cell the codec's
 * time and under it its interval. A cell's colour says how many times slower it is than the
 * fastest codec on that payload and op: async ops against the fastest async codec, as a
 * thread-pool call is a different choice from a sync one. Cells tied for fastest (within
 * the interval) are outlined.
 */
export function renderSvg(report: BenchReport): string {
  const keys = rowKeys(report);
  const runtime = new Map(report.codecs.map((k) => [k.id, k.runtime]));
  const label = (id: string) => `${id} (${runtime.get(id) ?? ""})`;
  const panels = [...new Set(keys.map((k) => k.payload))].flatMap((payload) => {
    const all = keys.filter((k) => k.payload === payload).map((k) => k.op);
    // At most four ops side by side, so an interval fits its cell; a payload with more (the
    // gossip payloads' client-pattern and allocation rows) continues below.
    return Array.from({ length: Math.ceil(all.length / 4) }, (_, i) => {
      const ops = all.slice(i * 4, i * 4 + 4);
      const cases = new Map(ops.map((op) => [op, rowCases(report, payload, op)]));
      const codecs = codecColumns(report).filter((id) => ops.some((op) => cases.get(op)!.has(id)));
      const cells = ops.flatMap((op) => {
        // Each op's own yardstick: its fastest codec on this payload.
        const times = [...cases.get(op)!.values()].map((c) => c.p50).filter(Number.isFinite);
        const tied = report.relative.find((r) => r.payload === payload && r.op === op)?.fastest;
        return codecs.map((id): Cell => {
          const r = cases.get(op)!.get(id);
          const at = { x: op, y: label(id), description: `${id} · ${payload} · ${op}` };
          if (!r || !Number.isFinite(r.p50))
            return { ...at, text: "", sub: "", description: `${at.description}: not run` };
          return {
            ...at,
            factor: r.p50 / Math.min(...times),
            text: formatTime(r.p50),
            sub: r.ci ? `${formatTime(r.ci.low)}–${formatTime(r.ci.high)}` : "no interval",
            outline: tied?.includes(id) ?? false,
          };
        });
      });
      const title = i === 0 ? payloadLabel(report, payload) : "";
      const layout = {
        step: 150,
        height: 32,
        outline: "#0f172a",
        fontSize: 12,
        angle: 0,
        wrap: 18,
      };
      return heatmap(cells, { ...layout, xs: ops, ys: codecs.map(label), title, yAxis: true });
    });
  });
  const { timing, environment: e } = report;
  const forks = timing.forks === 0 ? "1 in-process run" : `${timing.forks} forks`;
  const levels = reportLevels(report);
  return toSvg(
    "Snappy time per op, per payload and op, coloured by times the fastest codec",
    "Snappy time per op (lower is faster)",
    [
      `Median of ${forks} (child processes), ${report.mode} run, ${timing.clock ?? "wall"} clock; under each time, its ${levels.cases} interval.`,
      `Outlined: the fastest, or not distinguishable from it (${levels.ratios} interval of the ratio).`,
      `${e.cpu} × ${e.cores} · ${formatRuntime(e)} · ${e.date.slice(0, 10)} · commit ${(e.commit ?? "unknown").slice(0, 12)}`,
      "Colour: times the fastest codec on that payload and op (async ops: the fastest async codec)",
    ],
    { vconcat: panels },
  );
}

/**
 * merge.svg: one heat map per run, side by side: rows payload × op, columns codecs, each cell
 * the codec's ratio to its run's reference, coloured by how many times slower it is than the
 * row's fastest in that run; a cell whose codec the runs do not agree on is outlined in red.
 */
export function renderMergeSvg(report: MergeReport): string {
  const xs = [...new Set(report.cases.map((c) => c.codec))].sort();
  const ys = [...new Set(report.cases.map((c) => `${c.payload} · ${c.op}`))];
  const panels = report.runs.map((run, r) => {
    const cells = report.cases.flatMap((c): Cell[] => {
      const cell = c.cells[r];
      if (!cell) return [];
      const inRow = report.cases.filter((k) => k.payload === c.payload && k.op === c.op);
      const best = Math.min(...inRow.map((k) => k.cells[r]?.p50 ?? Number.POSITIVE_INFINITY));
      const text = cell.ratio === undefined ? `#${cell.rank}` : formatRatio(cell.ratio);
      const swaps = c.agrees ? "" : `; swaps with ${c.swapsWith.join(", ")}`;
      const y = `${c.payload} · ${c.op}`;
      const description = `${c.codec} · ${y} · run ${r + 1}: ${text}, rank ${cell.rank}${swaps}`;
      return [{ x: c.codec, y, factor: cell.p50 / best, text, outline: !c.agrees, description }];
    });
    const layout = { step: 64, height: 20, outline: "#dc2626", fontSize: 11, angle: -40, wrap: 99 };
    return heatmap(cells, { ...layout, xs, ys, title: `${r + 1}: ${run.label}`, yAxis: r === 0 });
  });
  const title =
    "Snappy runs side by side: time ÷ each run's reference, coloured by times the row's fastest";
  const date = report.date.slice(0, 10);
  return toSvg(
    title,
    title,
    [`Red outline: the runs disagree on that codec's place in its row. Merged ${date}.`],
    { hconcat: panels },
  );
}

// Okabe & Ito (2008) without yellow, which is too faint on white.
const OKABE_ITO = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7"];
const SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross"];
const DASH = { native: [1, 0], wasm: [7, 4], js: [2, 3] };

/** Colour of auto's threshold rules (purple, apart from the Okabe–Ito line colours). */
const AUTO = "#7B2CBF";

/** A size in bytes on the sweep's axis: "64 B", "16 KiB", "4 MiB". */
const SIZE =
  "datum.value >= 1048576 ? datum.value / 1048576 + ' MiB' : datum.value >= 1024 ? datum.value / 1024 + ' KiB' : datum.value + ' B'";

/**
 * The sweep chart: throughput (MB/s) against message size, log–log, one panel per op, one
 * line per codec (its colour and marker; the dash says its runtime: solid native, dashed
 * wasm, dotted JS). The ts/napi and JS-vs-native crossovers are grey rules over their
 * intervals, auto's thresholds purple rules, each named in the notes over its panel.
 */
export function renderSweepSvg(report: SweepReport): string {
  const [lo, hi] = [Math.min(...report.sizes), Math.max(...report.sizes)];
  const mbps = report.points.map((p) => p.mbps).filter((v) => v > 0);
  const [yLo, yHi] = [Math.min(...mbps), Math.max(...mbps)].map(
    (v, i) => 10 ** Math[i === 0 ? "floor" : "ceil"](Math.log10(v)),
  ) as [number, number];
  const ticks = Array.from({ length: Math.log10(yHi / yLo) }, (_, k) => yLo * 10 ** k)
    .flatMap((t) => [t, 2 * t, 5 * t])
    .concat(yHi);
  // A line's name says its runtime, as its dash does.
  const runtime = new Map(report.codecs.map((c) => [c.id, c.runtime]));
  const names = report.codecs.map((c) => `${c.id} (${c.runtime})`);
  const line = (range: readonly unknown[]) => ({
    field: "line",
    type: "nominal",
    sort: names,
    scale: { range },
    title: null,
  });
  const x = {
    field: "size",
    type: "quantitative",
    scale: { type: "log", base: 2, domain: [lo, hi] },
  };
  const panels = [...new Set(report.points.map((p) => p.op))].map((op) => {
    const crossings = crossovers(report, op).map((c) => ({
      size: c.size,
      low: Math.max(c.ci?.low ?? c.size!, lo),
      high: Math.min(c.ci?.high ?? c.size!, hi),
      tone: c.kind === "ts-vs-napi" ? "#555" : "#999",
      dashed: c.kind !== "ts-vs-napi",
    }));
    const points = report.points
      .filter((p) => p.op === op)
      .map((p) => ({
        ...p,
        line: `${p.codec} (${runtime.get(p.codec)})`,
        runtime: runtime.get(p.codec),
      }));
    const title = {
      text: op,
      fontSize: 15,
      subtitle: panelNotes(report, op),
      subtitleColor: "#222",
    };
    return {
      title,
      width: 540,
      height: 420,
      layer: [
        {
          data: { values: crossings },
          mark: { type: "rect", opacity: 0.1 },
          encoding: {
            x: { ...x, field: "low" },
            x2: { field: "high" },
            fill: { field: "tone", scale: null },
          },
        },
        {
          data: { values: crossings },
          mark: { type: "rule", strokeWidth: 1.5 },
          encoding: {
            x,
            stroke: { field: "tone", scale: null },
            strokeDash: { condition: { test: "datum.dashed", value: [5, 3] }, value: [1, 0] },
          },
        },
        {
          data: { values: thresholdRules(report, op) },
          mark: { type: "rule", color: AUTO, strokeWidth: 2, strokeDash: [8, 3, 2, 3] },
          encoding: { x },
        },
        // Each rule named over the plot, where no other rule runs (its size is in the notes),
        // a row each so that two close thresholds' names do not overlap.
        {
          data: { values: thresholdRules(report, op) },
          mark: { type: "text", color: AUTO, baseline: "bottom" },
          encoding: { x, y: { field: "top", scale: null }, text: { field: "label" } },
        },
        {
          data: { values: points },
          mark: { type: "line", point: { size: 50, filled: true }, strokeWidth: 2 },
          encoding: {
            x: {
              ...x,
              title: "message size (bytes, log scale)",
              axis: { values: report.sizes, labelExpr: SIZE, gridColor: "#eee" },
            },
            y: {
              field: "mbps",
              type: "quantitative",
              title: "MB/s (log scale)",
              scale: { type: "log", domain: [yLo, yHi] },
              axis: { values: ticks },
            },
            color: line(OKABE_ITO),
            shape: line(SHAPES),
            strokeDash: {
              field: "runtime",
              scale: { domain: Object.keys(DASH), range: Object.values(DASH) },
              legend: null,
            },
          },
        },
      ],
    };
  });
  const e = report.environment;
  return toSvg(
    "Snappy throughput by message size, one line per codec, with the ts/napi and JS/native crossovers and auto's thresholds",
    "Snappy throughput by message size (higher is faster)",
    [
      `${report.command} · ${e.date.slice(0, 10)} · ${e.runtime ? runtimeLabel(e.runtime) : `Node ${e.node}`} · ${e.cores} cores · median of ${report.timing.forks} forks per point`,
      "Lines: solid = native, dashed = wasm, dotted = JS. Grey rules: crossovers (shaded: their intervals).",
      "Purple rules: the sizes from which @snappykit/auto sends a call to native, per kind of data.",
    ],
    { vconcat: panels },
  );
}

/** The crossovers drawn on an op's panel: ts vs napi, fastest JS/wasm vs fastest native. */
const crossovers = (report: SweepReport, op: string) =>
  report.crossover.filter(
    (c) => c.op === op && c.size !== null && (c.kind === "ts-vs-napi" || c.kind === "js-vs-native"),
  );

/** auto's thresholds for `op` inside the swept sizes (a `null` one: never native). */
function thresholdRules(report: SweepReport, op: string) {
  const t = report.auto?.thresholds[op as "compress" | "uncompress"];
  if (!t) return [];
  const [lo, hi] = [Math.min(...report.sizes), Math.max(...report.sizes)];
  return (["compressible", "incompressible"] as const)
    .filter((kind) => t[kind] !== null && t[kind] >= lo && t[kind] <= hi)
    .map((kind, j) => ({ size: t[kind], label: `auto: ${kind}`, top: -4 - 15 * j }));
}

/** The lines over an op's panel: what its rules are, in words and figures. */
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
  // Beside the plot stands the legend.
  return fit(notes, 80);
}

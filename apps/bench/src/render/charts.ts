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

/** The width the charts are drawn at: GitHub's README column, so 1 unit is 1 px there. */
export const WIDTH = 830;

/** Factor at which the heat maps' colour scale saturates. */
export const CAP = 32;

const CONFIG = {
  font: "system-ui, -apple-system, Segoe UI, sans-serif",
  background: "#fff",
  padding: 10,
  title: { anchor: "start", fontSize: 17, subtitleFontSize: 12, subtitleColor: "#475569" },
  axis: { labelFontSize: 12, titleFontSize: 12, labelColor: "#334155" },
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
 * `spec` drawn as a standalone SVG document: what Vega's `toSVG()` does, synchronously (the
 * data is inline), as every renderer of a report returns its text.
 */
export function toSvg(spec: TopLevelSpec, title: string): string {
  // Without a canvas Vega guesses a text's width as 0.8 em a character, which leaves wide
  // margins; 0.62 em is nearer the sans-serif faces a browser shows (chart.test.ts checks).
  (vega as unknown as Headless).textMetrics.width = (item, text) =>
    0.62 * `${text ?? ""}`.length * (item.fontSize ?? 11);
  const view = new vega.View(vega.parse(compile({ ...spec, config: CONFIG }).spec), {
    renderer: "none",
  });
  view.run();
  const size = view as unknown as { _viewWidth: number; _viewHeight: number };
  const p = view.padding() as { left: number; right: number; top: number; bottom: number };
  const [x, y] = view.origin();
  const svg = new (vega as unknown as Headless).SVGStringRenderer()
    .initialize(null, size._viewWidth + p.left + p.right, size._viewHeight + p.top + p.bottom, [
      p.left + x,
      p.top + y,
    ])
    .background("#fff")
    .render((view.scenegraph() as unknown as { root: unknown }).root)
    .svg();
  return `${svg.replace(/^<svg /, '<svg role="img" ').replace(/>/, `><title>${esc(title)}</title>`)}\n`;
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

/**
 * One heat-map panel: `cells` on x × y bands (in the orders given), each coloured by its
 * factor, outlined in `outline` colour when marked; a missing factor is a grey cell.
 */
function heatmap(
  cells: readonly Cell[],
  {
    xs,
    ys,
    step,
    height,
    title,
    outline,
    angle,
    yAxis = true,
  }: {
    xs: readonly string[];
    ys: readonly string[];
    step: number;
    height: number;
    title: string;
    outline: string;
    /** Of the column labels: 0 when a label fits its column. */
    angle: number;
    /** Whether the row labels are drawn (side by side, only the first panel's are). */
    yAxis?: boolean;
  },
  fontSize: number,
) {
  const dark = `datum.factor > ${Math.sqrt(CAP) * 0.8}`;
  // The main text in bold on outlined cells: a layer each, as text marks have no weight channel.
  const text = (field: "text" | "sub", dy: number, size: number, bold?: boolean) => ({
    ...(bold !== undefined && { transform: [{ filter: `${bold ? "" : "!"}datum.outline` }] }),
    mark: { type: "text", dy, fontSize: size, baseline: "middle", fontWeight: bold ? 700 : 400 },
    encoding: {
      text: { field },
      color: { condition: { test: dark, value: "#fff" }, value: "#111827" },
    },
  });
  return {
    title: { text: title, fontSize: 14 },
    view: { stroke: null },
    width: { step },
    height: { step: height },
    data: { values: cells },
    encoding: {
      x: {
        field: "x",
        type: "nominal",
        scale: { domain: xs },
        axis: {
          orient: "top",
          title: null,
          labelAngle: angle,
          ...(angle !== 0 && { labelAlign: "left" }),
          labelFontWeight: 600,
          ticks: false,
          domain: false,
          labelFontSize: fontSize,
          labelColor: "#334155",
        },
      },
      y: {
        field: "y",
        type: "nominal",
        scale: { domain: ys },
        axis: yAxis && {
          title: null,
          ticks: false,
          domain: false,
          labelLimit: 0,
          labelFontSize: fontSize + 1,
          labelColor: "#0f172a",
        },
      },
    },
    layer: [
      {
        mark: { type: "rect", width: { band: 0.98 }, height: { band: 0.94 } },
        encoding: {
          color: { condition: { test: "datum.factor == null", value: "#f1f5f9" }, ...HEAT },
          stroke: { condition: { test: "datum.outline", value: outline }, value: null },
          strokeWidth: { value: 2 },
          description: { field: "description" },
        },
      },
      ...(cells.some((c) => c.sub)
        ? [text("text", -7, 12, true), text("text", -7, 12, false), text("sub", 8, 11)]
        : [text("text", 0, fontSize)]),
    ],
  };
}

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
  const levels = reportLevels(report);
  const e = report.environment;
  const panels = [...new Set(keys.map((k) => k.payload))].flatMap((payload) => {
    const all = keys.filter((k) => k.payload === payload).map((k) => k.op);
    // At most four ops side by side, so an interval fits its cell; a payload with more (the
    // gossip payloads' client-pattern and allocation rows) continues below.
    return Array.from({ length: Math.ceil(all.length / 4) }, (_, i) => {
      const ops = all.slice(i * 4, i * 4 + 4);
      const rows = ops.map((op) => ({ op, cases: rowCases(report, payload, op) }));
      const codecs = codecColumns(report).filter((id) => rows.some((r) => r.cases.has(id)));
      const cells = rows.flatMap(({ op, cases }) => {
        // Each op's own yardstick: its fastest codec on this payload.
        const best = Math.min(...[...cases.values()].map((c) => c.p50).filter(Number.isFinite));
        const fastest =
          report.relative.find((r) => r.payload === payload && r.op === op)?.fastest ?? [];
        return codecs.map((id): Cell => {
          const r = cases.get(id);
          const at = `${id} · ${payload} · ${op}`;
          if (!r || !Number.isFinite(r.p50))
            return { x: op, y: label(id), text: "", sub: "", description: `${at}: not run` };
          return {
            x: op,
            y: label(id),
            factor: r.p50 / best,
            text: formatTime(r.p50),
            sub: r.ci ? `${formatTime(r.ci.low)}–${formatTime(r.ci.high)}` : "no interval",
            outline: fastest.includes(id),
            description: at,
          };
        });
      });
      const title = i === 0 ? payloadLabel(report, payload) : "";
      return heatmap(
        cells,
        {
          xs: ops,
          ys: codecs.map(label),
          step: 150,
          height: 32,
          title,
          outline: "#0f172a",
          angle: 0,
        },
        12,
      );
    });
  });
  const forks = report.timing.forks === 0 ? "1 in-process run" : `${report.timing.forks} forks`;
  return toSvg(
    {
      title: {
        text: "Snappy time per op (lower is faster)",
        subtitle: fit([
          `Median of ${forks} (child processes), ${report.mode} run, ${report.timing.clock ?? "wall"} clock; under each time, its ${levels.cases} interval.`,
          `Outlined: the fastest, or not distinguishable from it (${levels.ratios} interval of the ratio).`,
          `${e.cpu} × ${e.cores} · ${formatRuntime(e)} · ${e.date.slice(0, 10)} · commit ${(e.commit ?? "unknown").slice(0, 12)}`,
          "Colour: times the fastest codec on that payload and op (async ops: the fastest async codec)",
        ]),
      },
      vconcat: panels,
      resolve: { scale: { color: "shared" } },
    } as TopLevelSpec,
    "Snappy time per op, per payload and op, coloured by times the fastest codec",
  );
}

/**
 * merge.svg: one heat map per run, side by side: rows payload × op, columns codecs, each cell
 * the codec's ratio to its run's reference, coloured by how many times slower it is than the
 * row's fastest in that run; a cell whose codec the runs do not agree on is outlined in red.
 */
export function renderMergeSvg(report: MergeReport): string {
  const codecs = [...new Set(report.cases.map((c) => c.codec))].sort();
  const rows = [...new Set(report.cases.map((c) => `${c.payload} · ${c.op}`))];
  const panels = report.runs.map((run, r) => {
    const cells = report.cases.flatMap((c): Cell[] => {
      const cell = c.cells[r];
      if (!cell) return [];
      const inRow = report.cases.filter((k) => k.payload === c.payload && k.op === c.op);
      const best = Math.min(...inRow.map((k) => k.cells[r]?.p50 ?? Number.POSITIVE_INFINITY));
      const text = cell.ratio === undefined ? `#${cell.rank}` : formatRatio(cell.ratio);
      return [
        {
          x: c.codec,
          y: `${c.payload} · ${c.op}`,
          factor: cell.p50 / best,
          text,
          outline: !c.agrees,
          description: `${c.codec} · ${c.payload} · ${c.op} · run ${r + 1}: ${text}, rank ${cell.rank}${c.agrees ? "" : `; swaps with ${c.swapsWith.join(", ")}`}`,
        },
      ];
    });
    return heatmap(
      cells,
      {
        xs: codecs,
        ys: rows,
        step: 64,
        height: 20,
        title: `${r + 1}: ${run.label}`,
        outline: "#dc2626",
        angle: -40,
        yAxis: r === 0,
      },
      11,
    );
  });
  const title =
    "Snappy runs side by side: time ÷ each run's reference, coloured by times the row's fastest";
  return toSvg(
    {
      title: {
        text: title,
        fontSize: 15,
        subtitle: fit([
          `Red outline: the runs disagree on that codec's place in its row. Merged ${report.date.slice(0, 10)}.`,
        ]),
      },
      hconcat: panels,
      resolve: { scale: { color: "shared" } },
    } as TopLevelSpec,
    title,
  );
}

// Okabe & Ito (2008) without yellow, which is too faint on white.
const OKABE_ITO = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7"];
const SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross"];

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
  const ops = [...new Set(report.points.map((p) => p.op))];
  const [lo, hi] = [Math.min(...report.sizes), Math.max(...report.sizes)];
  const mbps = report.points.map((p) => p.mbps).filter((v) => v > 0);
  const domain = [
    10 ** Math.floor(Math.log10(Math.min(...mbps))),
    10 ** Math.ceil(Math.log10(Math.max(...mbps))),
  ];
  // A line's name says its runtime, as its dash does.
  const name = new Map(report.codecs.map((c) => [c.id, `${c.id} (${c.runtime})`]));
  const names = [...name.values()];
  const ticks = Array.from(
    { length: Math.log10(domain[1]! / domain[0]!) },
    (_, k) => domain[0]! * 10 ** k,
  )
    .flatMap((t) => [t, 2 * t, 5 * t])
    .concat(domain[1]!);
  const x = {
    field: "size",
    type: "quantitative",
    scale: { type: "log", base: 2, domain: [lo, hi] },
  };
  const panels = ops.map((op) => {
    const crossings = crossovers(report, op).map((c) => ({
      size: c.size,
      low: Math.max(c.ci?.low ?? c.size!, lo),
      high: Math.min(c.ci?.high ?? c.size!, hi),
      tone: c.kind === "ts-vs-napi" ? "#555" : "#999",
      dashed: c.kind !== "ts-vs-napi",
    }));
    return {
      title: {
        text: op,
        fontSize: 15,
        subtitle: panelNotes(report, op),
        subtitleColor: "#222",
        subtitleFontSize: 12,
      },
      width: 540,
      height: 420,
      layer: [
        {
          data: { values: crossings },
          mark: { type: "rect", opacity: 0.1 },
          encoding: {
            x: { ...x, field: "low" },
            x2: { field: "high" },
            fill: { field: "tone", type: "nominal", scale: null },
          },
        },
        {
          data: { values: crossings },
          mark: { type: "rule", strokeWidth: 1.5 },
          encoding: {
            x,
            stroke: { field: "tone", type: "nominal", scale: null },
            strokeDash: { condition: { test: "datum.dashed", value: [5, 3] }, value: [1, 0] },
          },
        },
        {
          data: { values: thresholdRules(report, op) },
          mark: { type: "rule", color: AUTO, strokeWidth: 2, strokeDash: [8, 3, 2, 3] },
          encoding: { x },
        },
        // Each rule named along itself, so no name crosses another rule.
        {
          data: { values: thresholdRules(report, op) },
          mark: {
            type: "text",
            color: AUTO,
            angle: 270,
            align: "right",
            baseline: "bottom",
            dx: -6,
            dy: -3,
            y: 0,
            fontSize: 12,
          },
          encoding: { x, text: { field: "label" } },
        },
        {
          data: {
            values: report.points
              .filter((p) => p.op === op)
              .map((p) => ({
                ...p,
                line: name.get(p.codec),
                runtime: report.codecs.find((c) => c.id === p.codec)?.runtime,
              })),
          },
          mark: { type: "line", point: { size: 50, filled: true }, strokeWidth: 2 },
          encoding: {
            x: {
              ...x,
              title: "message size (bytes, log scale)",
              axis: { values: report.sizes, labelExpr: SIZE, grid: true, gridColor: "#eee" },
            },
            y: {
              field: "mbps",
              type: "quantitative",
              title: "MB/s (log scale)",
              scale: { type: "log", domain },
              axis: { values: ticks },
            },
            color: {
              field: "line",
              type: "nominal",
              sort: names,
              scale: { range: OKABE_ITO },
              title: null,
            },
            shape: {
              field: "line",
              type: "nominal",
              sort: names,
              scale: { range: SHAPES },
              title: null,
            },
            strokeDash: {
              field: "runtime",
              type: "nominal",
              scale: {
                domain: ["native", "wasm", "js"],
                range: [
                  [1, 0],
                  [7, 4],
                  [2, 3],
                ],
              },
              legend: null,
            },
          },
        },
      ],
    };
  });
  const e = report.environment;
  return toSvg(
    {
      title: {
        text: "Snappy throughput by message size (higher is faster)",
        subtitle: fit([
          `${report.command} · ${e.date.slice(0, 10)} · ${e.runtime ? runtimeLabel(e.runtime) : `Node ${e.node}`} · ${e.cores} cores · median of ${report.timing.forks} forks per point`,
          "Lines: solid = native, dashed = wasm, dotted = JS. Grey rules: crossovers (shaded: their intervals).",
          "Purple rules: the sizes from which @snappykit/auto sends a call to native, per kind of data.",
        ]),
      },
      vconcat: panels,
      resolve: { scale: { color: "shared", shape: "shared", strokeDash: "shared" } },
    } as unknown as TopLevelSpec,
    "Snappy throughput by message size, one line per codec, with the ts/napi and JS/native crossovers and auto's thresholds",
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
  return (["compressible", "incompressible"] as const).flatMap((kind) => {
    const size = t[kind];
    return size !== null && size >= lo && size <= hi
      ? [{ size, label: `auto: ${kind} → native from ${formatBytes(size)}` }]
      : [];
  });
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

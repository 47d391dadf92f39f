// The report's tables as data, rendered by markdown.ts and terminal.ts alike.
import { formatBytes } from "@snappykit/workspace/format";
import { RUNTIMES, type RuntimeName } from "../model/options.js";
import { type BenchReport, type CaseResult, type RuntimeRun, runtimeOf } from "../model/report.js";
import { halfWidthPercent } from "../summarise/stats.js";
import { reportLevels } from "./levels.js";
import { formatInt, formatPercent, formatRatio, formatThroughput, formatTime } from "./numbers.js";
import type { Cell, Table } from "./table.js";

export const c = (text: string, strong = false): Cell => ({ text, strong });

/** Codec ids as report columns: the reference first, then the rest in id order. */
export function codecColumns(report: BenchReport): string[] {
  const ids = report.codecs.map((k) => k.id).sort();
  return [report.reference, ...ids.filter((id) => id !== report.reference)].filter((id) =>
    ids.includes(id),
  );
}

/** "name (68.2 KiB × 1)": a payload with its size, for row labels. */
export function payloadLabel(report: BenchReport, name: string): string {
  const p = report.payloads.find((x) => x.name === name);
  if (!p) return name;
  return p.items === 1
    ? `${name} (${formatBytes(p.bytes)})`
    : `${name} (${p.items} × ${formatBytes(p.bytes / p.items)})`;
}

/** Adapter cases for (payload, op), keyed by codec. */
export function rowCases(
  report: BenchReport,
  payload: string,
  op: string,
): Map<string, CaseResult> {
  const m = new Map<string, CaseResult>();
  for (const r of report.cases) {
    if (r.impl === "adapter" && r.payload === payload && r.op === op) m.set(r.codec, r);
  }
  return m;
}

/** (payload, op) pairs that have at least one adapter case, in report order. */
export function rowKeys(report: BenchReport): { payload: string; op: string }[] {
  const keys: { payload: string; op: string }[] = [];
  for (const p of report.payloads) {
    for (const o of report.ops) {
      if (rowCases(report, p.name, o.id).size > 0) keys.push({ payload: p.name, op: o.id });
    }
  }
  return keys;
}

/** "252 µs ± 3.1 %": an estimate with the half-width of its interval. */
export function formatEstimate(r: Pick<CaseResult, "p50" | "ci">): string {
  const half = halfWidthPercent({ value: r.p50, ...(r.ci && { ci: r.ci }) });
  return half === undefined
    ? formatTime(r.p50)
    : `${formatTime(r.p50)} ± ${half < 10 ? half.toFixed(1) : half.toFixed(0)} %`;
}

/** Codecs tied for fastest in each row (from the report's relative rows). */
function fastestOf(report: BenchReport, payload: string, op: string): readonly string[] {
  return report.relative.find((r) => r.payload === payload && r.op === op)?.fastest ?? [];
}

/**
 * Estimate ± interval per op; rows payload × op, columns codecs; strong = every codec
 * the data cannot tell from the fastest.
 */
export function speedTable(report: BenchReport): Table {
  const cols = codecColumns(report);
  const rows = rowKeys(report).map(({ payload, op }) => {
    const cases = rowCases(report, payload, op);
    const fastest = fastestOf(report, payload, op);
    return [
      c(payloadLabel(report, payload)),
      c(op),
      ...cols.map((id) => {
        const r = cases.get(id);
        return r ? c(formatEstimate(r), fastest.includes(id)) : c("—");
      }),
    ];
  });
  return {
    headers: ["payload", "op", ...cols],
    align: ["l", "l", ...cols.map(() => "r" as const)],
    rows,
  };
}

/**
 * Each codec's time as a multiple of the reference's, measured in the same forks' turns,
 * with its interval: "0.42× [0.40, 0.44]". Strong = tied for fastest.
 */
/**
 * The rows of `report.relative` with a ratio in some column: ops the reference does not
 * offer (into-calls, gossip, alloc rows) have none, and the speed table has their times.
 */
export const ratedRows = (report: BenchReport) =>
  report.relative.filter((row) => row.cells.some((x) => x.ratio !== undefined));

/** {@link ratedRows} as multiples of the reference's time, with intervals. */
export function relativeTable(report: BenchReport): Table {
  const cols = codecColumns(report);
  const rows = ratedRows(report).map((row) => [
    c(payloadLabel(report, row.payload)),
    c(row.op),
    ...cols.map((id) => {
      const cell = row.cells.find((x) => x.codec === id);
      if (!cell || cell.ratio === undefined) return c("—");
      const text = cell.ci
        ? `${formatRatio(cell.ratio)} [${cell.ci.low.toFixed(2)}, ${cell.ci.high.toFixed(2)}]`
        : formatRatio(cell.ratio);
      return c(text, cell.fastest);
    }),
  ]);
  return {
    headers: ["payload", "op", ...cols],
    align: ["l", "l", ...cols.map(() => "r" as const)],
    rows,
  };
}

/** Compressed bytes and ratio per codec per payload; smallest strong. */
export function sizeTable(report: BenchReport): Table {
  const cols = codecColumns(report);
  const rows = report.payloads.map((p) => {
    const sizes = report.sizes.filter((s) => s.payload === p.name);
    const best = Math.min(...sizes.map((s) => s.compressedBytes));
    return [
      c(p.name),
      c(formatInt(p.bytes)),
      ...cols.map((id) => {
        const s = sizes.find((x) => x.codec === id);
        return s
          ? c(
              `${formatInt(s.compressedBytes)} (${s.ratio.toFixed(2)}×)`,
              s.compressedBytes === best,
            )
          : c("—");
      }),
    ];
  });
  return {
    headers: ["payload", "bytes", ...cols],
    align: ["l", "r", ...cols.map(() => "r" as const)],
    rows,
  };
}

/** Bytes allocated per op: JS heap / external (Buffer backing stores); least total strong. */
export function allocationTable(report: BenchReport): Table {
  const cols = codecColumns(report);
  const total = (r: CaseResult) => r.alloc.heap + r.alloc.external;
  const rows = rowKeys(report).map(({ payload, op }) => {
    const cases = rowCases(report, payload, op);
    const best = Math.min(...[...cases.values()].map(total));
    return [
      c(payloadLabel(report, payload)),
      c(op),
      ...cols.map((id) => {
        const r = cases.get(id);
        return r
          ? c(`${formatBytes(r.alloc.heap)} / ${formatBytes(r.alloc.external)}`, total(r) === best)
          : c("—");
      }),
    ];
  });
  return {
    headers: ["payload", "op", ...cols],
    align: ["l", "l", ...cols.map(() => "r" as const)],
    rows,
  };
}

/** "+3.1 % [+1.0, +5.2]" or "within noise (−2 % [−6, +2])". */
function formatOverhead(o: BenchReport["overhead"][number]): string {
  const ci = o.ci ? ` [${formatPercent(o.ci.low)}, ${formatPercent(o.ci.high)}]` : "";
  return o.withinNoise
    ? `within noise (${formatPercent(o.percent)}${ci})`
    : `${formatPercent(o.percent)}${ci}`;
}

/** Library called directly vs through the adapter, paired by fork. */
export function overheadTable(report: BenchReport): Table {
  return {
    headers: [
      "codec",
      "payload",
      "op",
      "library direct",
      "through adapter",
      `overhead (${reportLevels(report).overhead} interval)`,
    ],
    align: ["l", "l", "l", "r", "r", "r"],
    rows: report.overhead.map((o) => [
      c(o.codec),
      c(payloadLabel(report, o.payload)),
      c(o.op),
      c(formatTime(o.rawP50)),
      c(formatTime(o.adapterP50)),
      c(formatOverhead(o), !o.withinNoise),
    ]),
  };
}

/** Every case with its spread, batch size, throughput and allocation. */
export function spreadTable(report: BenchReport): Table {
  return {
    headers: [
      "codec",
      "payload",
      "op",
      `p50 (${reportLevels(report).cases} interval)`,
      "p75",
      "p99",
      "min",
      "max",
      "forks × batches × ops",
      "throughput",
    ],
    align: ["l", "l", "l", "r", "r", "r", "r", "r", "r", "r"],
    rows: report.cases.map((r) => [
      c(r.impl === "raw" ? `${r.codec} (raw)` : r.codec),
      c(r.payload),
      c(r.op),
      c(
        r.ci
          ? `${formatTime(r.p50)} [${formatTime(r.ci.low)}, ${formatTime(r.ci.high)}]`
          : formatTime(r.p50),
      ),
      c(formatTime(r.p75)),
      c(formatTime(r.p99)),
      c(formatTime(r.min)),
      c(formatTime(r.max)),
      c(`${r.forks} × ${Math.round(r.samples / Math.max(1, r.forks))} × ${r.batch}`),
      c(formatThroughput(r.bytes, r.p50)),
    ]),
  };
}

/** The payloads of the run. */
export function payloadTable(report: BenchReport): Table {
  return {
    headers: ["payload", "kind", "items", "bytes", "description"],
    align: ["l", "l", "r", "r", "l"],
    rows: report.payloads.map((p) => [
      c(p.name),
      c(p.kind),
      c(String(p.items)),
      c(formatInt(p.bytes)),
      c(p.description),
    ]),
  };
}

/** Codecs that loaded, with the library each really loaded. */
export function codecTable(report: BenchReport): Table {
  return {
    headers: ["codec", "library", "runtime", "async API"],
    align: ["l", "l", "l", "l"],
    rows: codecColumns(report).map((id) => {
      const k = report.codecs.find((x) => x.id === id)!;
      return [
        c(id === report.reference ? `${id} (reference)` : id),
        c(k.library),
        c(k.runtime),
        c(k.async ? "yes" : "no"),
      ];
    }),
  };
}

/** Codecs that failed to load and why. */
export function unavailableTable(report: BenchReport): Table {
  return {
    headers: ["codec", "package", "reason"],
    align: ["l", "l", "l"],
    rows: report.unavailable.map((u) => [c(u.id), c(u.packageName), c(u.reason)]),
  };
}

/**
 * The same adapter cases in this run and the latest run of every other runtime
 * (`report.runtimes`), one column per runtime in RUNTIMES order: rows codec × payload × op,
 * only where every run timed the case. Undefined without another runtime's run.
 */
export function runtimeTable(report: BenchReport): Table | undefined {
  if (!report.runtimes?.length) return undefined;
  const order = (run: RuntimeRun) => RUNTIMES.indexOf(run.runtime.name as RuntimeName);
  const runs = [
    { runtime: runtimeOf(report.environment), cases: report.cases },
    ...report.runtimes,
  ].sort((a, b) => order(a) - order(b));
  // A case that every fork lost is in a report with no estimate: it did not run there.
  const find = (run: RuntimeRun, r: RuntimeRun["cases"][number]) =>
    run.cases.find(
      (x) =>
        x.impl === "adapter" &&
        x.codec === r.codec &&
        x.payload === r.payload &&
        x.op === r.op &&
        Number.isFinite(x.p50),
    );
  const rows = runs[0]!.cases
    .filter((r) => r.impl === "adapter" && runs.every((run) => find(run, r)))
    .sort((a, b) => a.codec.localeCompare(b.codec))
    .map((r) => [
      c(r.codec),
      c(payloadLabel(report, r.payload)),
      c(r.op),
      ...runs.map((run) => c(formatEstimate(find(run, r)!))),
    ]);
  if (rows.length === 0) return undefined;
  return {
    headers: [
      "codec",
      "payload",
      "op",
      ...runs.map((run) => `${run.runtime.name} ${run.runtime.version}`),
    ],
    align: ["l", "l", "l", ...runs.map(() => "r" as const)],
    rows,
  };
}

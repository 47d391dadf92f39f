// The report's tables as data, rendered by markdown.ts and terminal.ts alike.
import type { CaseResult } from "../run.js";
import { formatBytes, formatInt, formatPercent, formatThroughput, formatTime } from "./format.js";
import type { BenchReport } from "./json.js";

/** One table cell; `strong` marks the best of its row. */
export interface Cell {
  readonly text: string;
  readonly strong?: boolean;
}

/** A rectangular table; `align` per column ("r" for numbers). */
export interface Table {
  readonly headers: readonly string[];
  readonly align: readonly ("l" | "r")[];
  readonly rows: readonly (readonly Cell[])[];
}

const c = (text: string, strong = false): Cell => ({ text, strong });

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

/** p50 per op; rows payload × op, columns codecs; fastest of each row strong. */
export function speedTable(report: BenchReport): Table {
  const cols = codecColumns(report);
  const rows = rowKeys(report).map(({ payload, op }) => {
    const cases = rowCases(report, payload, op);
    const best = Math.min(...[...cases.values()].map((r) => r.p50));
    return [
      c(payloadLabel(report, payload)),
      c(op),
      ...cols.map((id) => {
        const r = cases.get(id);
        return r ? c(formatTime(r.p50), r.p50 === best) : c("—");
      }),
    ];
  });
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

/** Library called directly vs through the adapter. */
export function overheadTable(report: BenchReport): Table {
  return {
    headers: ["codec", "payload", "op", "library direct", "through adapter", "overhead"],
    align: ["l", "l", "l", "r", "r", "r"],
    rows: report.overhead.map((o) => [
      c(o.codec),
      c(payloadLabel(report, o.payload)),
      c(o.op),
      c(formatTime(o.rawP50)),
      c(formatTime(o.adapterP50)),
      c(formatPercent(o.percent)),
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
      "p50",
      "p75",
      "p99",
      "min",
      "max",
      "samples × batch",
      "throughput",
    ],
    align: ["l", "l", "l", "r", "r", "r", "r", "r", "r", "r"],
    rows: report.cases.map((r) => [
      c(r.impl === "raw" ? `${r.codec} (raw)` : r.codec),
      c(r.payload),
      c(r.op),
      c(formatTime(r.p50)),
      c(formatTime(r.p75)),
      c(formatTime(r.p99)),
      c(formatTime(r.min)),
      c(formatTime(r.max)),
      c(`${r.samples} × ${r.batch}`),
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

/** Per-case change against the baseline, worst first. */
export function comparisonTable(report: BenchReport): Table | undefined {
  const cmp = report.comparison;
  if (!cmp) return undefined;
  const rows = [...cmp.rows].sort((a, b) => b.deltaPercent - a.deltaPercent);
  return {
    headers: ["codec", "payload", "op", "baseline p50", "p50", "change", ""],
    align: ["l", "l", "l", "r", "r", "r", "l"],
    rows: rows.map((r) => [
      c(r.impl === "raw" ? `${r.codec} (raw)` : r.codec),
      c(r.payload),
      c(r.op),
      c(formatTime(r.baseP50)),
      c(formatTime(r.p50)),
      c(formatPercent(r.deltaPercent), r.verdict === "regression"),
      c(r.verdict === "same" ? "" : r.verdict),
    ]),
  };
}

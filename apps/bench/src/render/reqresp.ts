// The req/resp answer from a report's framed rows (`--op reqresp`, inputs/framed.ts): per
// response, each implementation's encode and read times with their intervals, its read time
// against the fastest read, its peak memory as a multiple of the response, and whether it
// checks CRCs; then which implementation to use, in words. The terminal, the Markdown report
// and the docs generator (src/docs/sections.js) print the same table and sentences.
import { formatBytes } from "@snappykit/workspace/format";
import { OVER_CODEC } from "../model/case.js";
import type { BenchReport, CaseResult } from "../model/report.js";
import { caseRatio } from "../summarise/results.js";
import { sideOfOne } from "../summarise/stats.js";
import { formatRatio } from "./numbers.js";
import type { Table } from "./table.js";
import { c, formatEstimate, payloadLabel } from "./tables.js";

const READ = "reqresp-read:";
const ENCODE = "reqresp-encode:";

/** One implementation over one codec on one response: its framed cases. */
export interface FramedRow {
  /** "snappykit over ts", "snappy-frames". */
  readonly label: string;
  /** The package, version and calls, from the op's description. */
  readonly library: string;
  readonly payload: string;
  readonly crcChecked: boolean;
  readonly read?: CaseResult;
  readonly encode?: CaseResult;
  /** Read time ÷ the response's fastest read, paired fork by fork. */
  readonly vsFastest?: { value: number; low?: number; high?: number; tied: boolean };
}

/** Every framed implementation's row, response by response, in report order. */
export function framedRows(report: BenchReport): FramedRow[] {
  const description = new Map(report.ops.map((o) => [o.id, o.description]));
  const rows: FramedRow[] = [];
  for (const p of report.payloads) {
    const reads = report.cases.filter(
      (r) => r.impl === "adapter" && r.payload === p.name && r.op.startsWith(READ),
    );
    const timed = reads.filter((r) => Number.isFinite(r.p50));
    const fastest = timed.reduce<CaseResult | undefined>(
      (a, b) => (a && a.p50 <= b.p50 ? a : b),
      undefined,
    );
    for (const read of reads) {
      const impl = read.op.slice(READ.length);
      const text = description.get(read.op) ?? "";
      const encode = report.cases.find(
        (r) => r.codec === read.codec && r.payload === p.name && r.op === `${ENCODE}${impl}`,
      );
      const ratio = fastest && Number.isFinite(read.p50) ? caseRatio(read, fastest) : undefined;
      rows.push({
        label: text.includes(OVER_CODEC) ? `${impl} over ${read.codec}` : impl,
        library: /^(.*?)(?: over the fork's codec)?: read every/.exec(text)?.[1] ?? impl,
        payload: p.name,
        crcChecked: /; CRC checked/.test(text),
        read,
        ...(encode && { encode }),
        ...(ratio && {
          vsFastest: {
            value: ratio.value,
            ...(ratio.ci && { low: ratio.ci.low, high: ratio.ci.high }),
            tied: read === fastest || (ratio.ci !== undefined && sideOfOne(ratio.ci) !== 1),
          },
        }),
      });
    }
  }
  return rows;
}

/** How the table's figures are measured, for the reports and the results page. */
export const REQRESP_METHOD =
  "Each framed implementation encodes every chunk of a response (`reqresp-encode:<impl>`) and " +
  "reads each from its encoding cut into 65,519-byte pieces (a Noise message's most " +
  "plaintext; `reqresp-read:<impl>`), awaited chunk by chunk; times are the median of the " +
  "fork medians ± half their interval, and read ÷ fastest read is paired fork by fork. " +
  "**Peak external memory**: `process.memoryUsage().external` (which includes " +
  "`arrayBuffers`, so that is not added again) sampled before every piece is handed to the " +
  "reader and after every chunk, the decoded chunks held as a client holds them, minus its " +
  "level after two full GCs; the median over the first three forks (fresh processes), " +
  "[lowest–highest], as a multiple of the response's bytes (1× = the decoded response " +
  "alone). Memory a library keeps outside V8's count (a native allocator's) is not in it. " +
  "**Bold**: a read tied for fastest, the least peak memory.";

/** "2.10× [1.95–2.30] (3 forks)": a peak as a multiple of the response's bytes. */
export function formatPeak(r: CaseResult): string {
  if (!r.peak) return "—";
  const x = (b: number) => b / r.bytes;
  return `${formatRatio(x(r.peak.bytes))} [${x(r.peak.low).toFixed(2)}–${x(r.peak.high).toFixed(2)}] (${formatBytes(r.peak.bytes)}, ${r.peak.forks} forks)`;
}

const vsText = (v: FramedRow["vsFastest"]) =>
  v === undefined
    ? "—"
    : v.low === undefined
      ? formatRatio(v.value)
      : `${formatRatio(v.value)} [${v.low.toFixed(2)}, ${v.high!.toFixed(2)}]`;

/** The framed rows as a table; strong: a read tied for fastest, the least peak memory. */
export function reqrespTable(report: BenchReport): Table {
  const rows = framedRows(report);
  const leastPeak = new Map<string, number>();
  for (const r of rows) {
    const peak = r.read?.peak ? r.read.peak.bytes : Number.POSITIVE_INFINITY;
    leastPeak.set(r.payload, Math.min(leastPeak.get(r.payload) ?? peak, peak));
  }
  return {
    headers: [
      "response",
      "implementation",
      "CRC",
      "encode",
      "read (65,519-byte pieces)",
      "read ÷ fastest read",
      "peak external memory ÷ response",
    ],
    align: ["l", "l", "l", "r", "r", "r", "r"],
    rows: rows.map((r) => [
      c(payloadLabel(report, r.payload)),
      c(r.label),
      c(r.crcChecked ? "checked" : "not checked"),
      c(r.encode ? formatEstimate(r.encode) : "—"),
      c(r.read ? formatEstimate(r.read) : "—", r.vsFastest?.tied),
      c(vsText(r.vsFastest), r.vsFastest?.tied),
      c(
        r.read ? formatPeak(r.read) : "—",
        r.read?.peak !== undefined && r.read.peak.bytes === leastPeak.get(r.payload),
      ),
    ]),
  };
}

/**
 * Which framed implementation to use, from the largest response's rows: of those that check
 * CRCs, the ones whose read is tied with the fastest of them, and of these the one with the
 * least peak memory. Empty when the report has no framed rows.
 */
export function reqrespAnswer(report: BenchReport): string[] {
  const rows = framedRows(report);
  if (rows.length === 0) return [];
  const size = (name: string) => {
    const p = report.payloads.find((x) => x.name === name)!;
    return p.bytes / p.items;
  };
  const payload = [...new Set(rows.map((r) => r.payload))].sort((a, b) => size(b) - size(a))[0]!;
  const checked = rows.filter(
    (r) => r.payload === payload && r.crcChecked && r.read && Number.isFinite(r.read.p50),
  );
  const unchecked = [...new Set(rows.filter((r) => !r.crcChecked).map((r) => r.label))];
  const tail = unchecked.length > 0 ? [`Checks no CRC, so left out: ${unchecked.join(", ")}.`] : [];
  const at = payloadLabel(report, payload);
  if (checked.length === 0) return [`No framed read that checks CRCs was timed on ${at}.`, ...tail];
  const fastest = checked.reduce((a, b) => (b.read!.p50 < a.read!.p50 ? b : a));
  const vs = new Map(checked.map((r) => [r, caseRatio(r.read!, fastest.read!)]));
  const tied = checked.filter((r) => {
    const ci = vs.get(r)!.ci;
    return r === fastest || (ci !== undefined && sideOfOne(ci) !== 1);
  });
  const peakOf = (r: FramedRow) => r.read!.peak?.bytes ?? Number.POSITIVE_INFINITY;
  const pick = [...tied].sort((a, b) => peakOf(a) - peakOf(b) || a.read!.p50 - b.read!.p50)[0]!;
  const ratio = (r: FramedRow) => {
    const e = vs.get(r)!;
    return e.ci
      ? `${formatRatio(e.value)} [${e.ci.low.toFixed(2)}, ${e.ci.high.toFixed(2)}]`
      : formatRatio(e.value);
  };
  const how =
    pick === fastest
      ? `its read is the fastest of the implementations that check CRCs (${formatEstimate(pick.read!)})`
      : `its read is tied with the fastest of the implementations that check CRCs, ${fastest.label} ` +
        `(${formatEstimate(pick.read!)}, ${ratio(pick)} its time)`;
  return [
    `**For req/resp: ${pick.label}** (${pick.library}). On ${at}, ${how}, and its peak external memory, ` +
      `${formatPeak(pick.read!)}, is the least of those tied.`,
    `Tied there: ${tied.map((r) => `${r.label} (${ratio(r)}, peak ${formatPeak(r.read!)})`).join("; ")}. ` +
      `Slower${vs.get(fastest)!.ci ? ", the interval excluding 1" : " (no interval: too few forks to tell a tie)"}: ${
        checked
          .filter((r) => !tied.includes(r))
          .map((r) => `${r.label} (${ratio(r)})`)
          .join("; ") || "none"
      }.`,
    ...tail,
  ];
}

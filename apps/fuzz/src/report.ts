// The safety report: its JSON shape and its Markdown rendering (shared with the bench's
// report and the README, so it takes only the JSON and imports nothing heavy).

import type { Machine, Measured } from "@snappykit/workspace/environment";
import { formatBytes, formatDuration, markdownTable } from "@snappykit/workspace/format";
import type { SetName } from "./inputs.js";
import {
  type CellStats,
  CORRECT,
  HANG_MS,
  OUTCOMES,
  type Outcome,
  RSS_LIMIT_BYTES,
  SLOW_MS,
  type Target,
} from "./outcome.js";
import type { ReferenceCheck } from "./reference.js";

/** One codec (an adapter's guarded codec, or its raw backend) over the input sets. */
export interface SafetyRow {
  /** Adapter id (its folder under packages/). */
  id: string;
  /**
   * `adapter`: the guarded codec (`createCodec()`); `raw`: the library with no guards
   * (`createRaw()`); `framed`: a framed req/resp implementation, its id the bench's.
   */
  target: Target;
  library: string;
  sets: Partial<Record<SetName, CellStats>>;
  /** All sets together. */
  total: CellStats;
  /** Empty when the row meets the adapter targets. */
  missed: string[];
}

/** A codec that could not be loaded, and why. */
export interface FailedRow {
  id: string;
  target: Target;
  reason: string;
}

/** What `pnpm fuzz` writes to safety.json. */
export interface SafetyReport {
  schemaVersion: 1;
  /** ISO date of the run. */
  date: string;
  durationMs: number;
  /** Inputs per set for adapter rows (crafted: the suite's fixed case count). */
  n: Record<SetName, number>;
  /** Inputs per set for raw rows (may be capped below `n`: raw libraries are slow to fuzz). */
  rawN: Record<SetName, number>;
  /** Inputs per set for the framed (req/resp) rows; absent when they did not run. */
  framedN?: { crafted: number; mutated: number };
  seed: number;
  environment: Machine;
  /** The packages measured, as git trees at the end of the run (reports before it: none). */
  measured?: Measured;
  limits: { slowMs: number; hangMs: number; rssLimitBytes: number; rssCapBytes: number };
  /** True when each call's peak RSS was measured exactly (Linux clear_refs + VmHWM). */
  exactRssPeaks: boolean;
  /** How the reference decides "same bytes" and "silent accept". */
  reference: string;
  referenceCheck: ReferenceCheck;
  /** Where the mutated set's valid streams came from. */
  mutatedPool: { source: string; compressor: string; streams: number; maxStreamBytes: number };
  rows: SafetyRow[];
  failed: FailedRow[];
  /**
   * The matrices rendered as Markdown without the top heading (subsections at level 3),
   * for reports that embed this file without importing this package (the bench).
   */
  markdown?: string;
}

/** Options for {@link renderSafetyMarkdown}. */
export interface RenderOptions {
  /** Level of the "Safety on hostile input" heading; subsections go one deeper. @default 2 */
  depth?: number;
  /** Leave out the top heading (when the host document has its own). @default false */
  omitHeading?: boolean;
}

const COLUMN: Record<Outcome, string> = {
  rejected: "rejects (SnappyError)",
  rejectedOther: "rejects (other error)",
  same: "same bytes",
  falseReject: "false reject",
  silentAccept: "silent accept",
  wrongBytes: "wrong bytes",
  crash: "crash",
  hang: `hang > ${HANG_MS / 1000} s`,
};

function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(2)} ms`;
}

const bad = (n: number, isBad: boolean) => (n > 0 && isBad ? `**${n}**` : String(n));

const HEAD: Record<Target, string> = {
  adapter: "adapter",
  raw: "library (raw)",
  framed: "framed implementation",
};

function matrix(rows: readonly SafetyRow[], target: Target): string {
  const raw = target !== "adapter";
  const head = [
    HEAD[target],
    "calls",
    ...OUTCOMES.map((o) => COLUMN[o]),
    `slow > ${SLOW_MS} ms`,
    "peak RSS growth",
    "slowest call",
    "targets",
  ];
  const body = rows.map((row) => {
    const t = row.total;
    const rss = formatBytes(t.maxRssGrowth);
    return [
      raw ? `${row.id}: ${row.library}` : `${row.id} (${row.library})`,
      String(t.calls),
      // A failure for an adapter is shown in bold; a library's own error type is no failure.
      ...OUTCOMES.map((o) => bad(t.counts[o], !CORRECT.has(o) && !(raw && o === "rejectedOther"))),
      bad(t.slow, true),
      t.rssOver > 0 ? `**${rss}** (${t.rssOver} ≥ 64 MiB)` : rss,
      formatMs(t.maxMs),
      row.missed.length === 0 ? "✓ met" : "✗ missed",
    ];
  });
  return table(head, body, 1);
}

/** A table with its first `left` columns aligned left, the numbers right. */
const table = (head: string[], body: string[][], left: number) =>
  markdownTable(
    head,
    head.map((_, i) => (i < left ? "l" : "r")),
    body,
  );

/** A row's name in lists: its id, and what it is unless an adapter. */
const rowName = (row: SafetyRow) =>
  `${row.id}${row.target === "adapter" ? "" : ` (${row.target})`}`;

function perSet(report: SafetyReport): string {
  const head = [
    "codec",
    "set",
    "calls",
    "silent accept",
    "wrong bytes",
    "false reject",
    "other error",
    "crash",
    "hang",
    "slow",
    "≥ 64 MiB",
    "peak RSS growth",
    "slowest",
  ];
  const body: string[][] = [];
  for (const row of report.rows) {
    for (const [set, s] of Object.entries(row.sets) as [SetName, CellStats][]) {
      const c = s.counts;
      body.push([
        rowName(row),
        set,
        ...[s.calls, c.silentAccept, c.wrongBytes, c.falseReject, c.rejectedOther, c.crash, c.hang]
          .concat([s.slow, s.rssOver])
          .map(String),
        formatBytes(s.maxRssGrowth),
        formatMs(s.maxMs),
      ]);
    }
  }
  return table(head, body, 2);
}

function examples(report: SafetyReport): string[] {
  const lines: string[] = [];
  for (const row of report.rows) {
    for (const [set, s] of Object.entries(row.sets) as [SetName, CellStats][]) {
      // One line per input, naming every notable thing it did (a hang is also slow, ...).
      const byIndex = new Map<number, { kinds: string[]; ex: (typeof s.examples)["hang"] }>();
      for (const [kind, list] of Object.entries(s.examples)) {
        if (kind === "rejectedOther" && row.target !== "adapter") continue; // expected of libraries
        for (const ex of list ?? []) {
          const seen = byIndex.get(ex.index) ?? { kinds: [], ex: [ex] };
          seen.kinds.push(kind === "rss" ? "≥ 64 MiB" : kind);
          byIndex.set(ex.index, seen);
        }
      }
      for (const [index, { kinds, ex }] of byIndex) {
        const e = ex![0]!;
        const hex = e.hex.length > 80 ? `${e.hex.slice(0, 80)}…` : e.hex;
        lines.push(
          `- ${rowName(row)}, ${set} #${index}, ${kinds.join(" + ")}: \`${hex}\` (${formatMs(e.ms)}, +${formatBytes(e.rssGrowth)}${e.detail ? `; ${e.detail}` : ""})`,
        );
      }
    }
  }
  return lines;
}

/**
 * Render a {@link SafetyReport} as Markdown: the adapter matrix, the raw-library matrix,
 * a per-set breakdown and example inputs, nestable in another report via `options`.
 */
export function renderSafetyMarkdown(report: SafetyReport, options: RenderOptions = {}): string {
  const depth = options.depth ?? 2;
  const h = (level: number) => "#".repeat(depth + level);
  const adapters = report.rows.filter((r) => r.target === "adapter");
  const raw = report.rows.filter((r) => r.target === "raw");
  const nText = (n: Record<SetName, number>) =>
    `${n.random.toLocaleString("en-US")} random, ${n.mutated.toLocaleString("en-US")} mutated, ${n.crafted} crafted`;
  const out: string[] = [
    ...(options.omitHeading ? [] : [`${h(0)} Safety on hostile input`, ""]),
    `Every call ran in a child process under a watchdog: decompress ${nText(report.n)} inputs per adapter` +
      (raw.length > 0 ? ` (${nText(report.rawN)} per raw library)` : "") +
      `, each judged against the reference. Random inputs are 1–128 bytes; mutated inputs are valid streams built from the fixtures with 1–4 bytes overwritten (a quarter also truncated). ` +
      `Slow: > ${SLOW_MS} ms. Hang: killed at ${HANG_MS / 1000} s. Peak RSS growth: the call's peak resident memory over the child's RSS just before it` +
      (report.exactRssPeaks ? " (kernel high-water mark, reset per call)" : " (sampled)") +
      `; the target is under ${formatBytes(RSS_LIMIT_BYTES)}.`,
    "",
    `Run ${report.date.slice(0, 10)} on ${report.environment.cpu} (${report.environment.cores} cores), Node ${report.environment.node}; took ${formatDuration(report.durationMs)}. Reference: ${report.reference}.`,
    "",
    `${h(1)} Adapters (\`createCodec()\`)`,
    "",
    "Targets: 0 silent accepts, 0 wrong bytes, 0 crashes, 0 hangs, 0 calls over 100 ms, peak RSS growth under 64 MiB, and (the contract) 0 false rejects and only `SnappyError`s.",
    "",
    matrix(adapters, "adapter"),
    "",
  ];
  const missing = adapters.filter((r) => r.missed.length > 0);
  for (const row of missing) out.push(`- **${row.id}** misses: ${row.missed.join(", ")}`);
  if (missing.length > 0) out.push("");
  if (raw.length > 0) {
    out.push(
      `${h(1)} Raw libraries (\`createRaw()\`, no guards)`,
      "",
      'The same inputs given to each backend library directly: what the adapters\' guards prevent. A raw library throwing its own error type is the right call ("rejects (other error)").',
      "",
      matrix(raw, "raw"),
      "",
    );
  }
  const framed = report.rows.filter((r) => r.target === "framed");
  if (framed.length > 0 && report.framedN) {
    out.push(
      `${h(1)} Framed req/resp implementations`,
      "",
      `Each framed implementation the bench times (its req/resp table names them) reads ${report.framedN.crafted} crafted and ${report.framedN.mutated} mutated \`ssz_snappy\` encodings, delivered in 7-byte pieces, judged against a by-the-book ssz_snappy decoder with CRCs checked. The libraries read no length prefix: a client reads it (at most 10 bytes, at most MAX_PAYLOAD_SIZE) and checks the decoded length against it, and so does the fuzzer. A stream that never settles is a hang, killed at ${HANG_MS / 1000} s. Silent accepts are what a library lets through (a CRC it does not check, a chunk it should refuse).`,
      "",
      matrix(framed, "framed"),
      "",
    );
  }
  if (report.failed.length > 0) {
    out.push("Not loaded:", "");
    for (const f of report.failed) out.push(`- ${f.id} (${f.target}): ${f.reason}`);
    out.push("");
  }
  const check = report.referenceCheck;
  out.push(
    `Reference cross-check: the oracle and \`validateCompressed\` agreed on ${check.inputs - check.disagreements.length} of ${check.inputs} inputs.`,
    "",
    "<details><summary>By input set</summary>",
    "",
    perSet(report),
    "",
    "</details>",
    "",
  );
  const ex = examples(report);
  if (ex.length > 0) {
    out.push(
      "<details><summary>Example inputs (hex) for every failing outcome</summary>",
      "",
      ...ex,
      "",
      "</details>",
      "",
    );
  }
  return out.join("\n").trimEnd();
}

// Encoder fuzz: every adapter codec, variant and raw backend compresses every encoder input in
// its own child process (restarted after a crash or hang), and the reference judges each stream.
import { type Measured, measuredTrees } from "@snappykit/workspace/environment";
import { formatDuration, markdownTable } from "@snappykit/workspace/format";
import { subjects } from "../fuzz.js";
import { type Target, zeros } from "../outcome.js";
import type { FailedRow } from "../report.js";
import { type OnProgress, runJob } from "../runner.js";
import type { Subject } from "../serve.js";
import { describeSpec, type EncoderInputSpec, encoderSpecs } from "./inputs.js";
import { ENCODER_OUTCOMES, type EncoderOutcome } from "./judge.js";
import type { EncoderResult } from "./worker.js";

/** A compress + judge call still running after this long is a hang (4 MiB in plain JS, niced, is seconds). */
export const ENCODER_HANG_MS = 120_000;

export interface EncoderRow {
  id: string;
  target: Target;
  library: string;
  inputs: number;
  counts: Record<EncoderOutcome, number>;
  bytesIn: number;
  bytesOut: number;
  slowestMs: number;
  /** Longest copy offset in any stream that round-tripped. */
  maxOffset: number;
  /** Copies with a 4-byte offset, over all streams. */
  copy4: number;
  restarts: number;
  /** Up to 40 inputs that did not come back `ok`. */
  failures: { input: string; outcome: EncoderOutcome; detail: string }[];
}

export interface EncoderReport {
  schemaVersion: 1;
  date: string;
  /** The packages measured, as git trees at the end of the run (reports before it: none). */
  measured?: Measured;
  durationMs: number;
  seed: number;
  quick: boolean;
  inputs: number;
  sizes: number[];
  kinds: string[];
  reference: string;
  rows: EncoderRow[];
  failed: FailedRow[];
}

export interface EncoderOptions {
  seed?: number;
  quick?: boolean;
  codecs?: readonly string[];
  raw?: boolean;
  onProgress?: OnProgress;
}

/** Run every spec in `subject`'s children and tally the verdicts into one row. */
async function runRow(
  subject: Subject,
  specs: EncoderInputSpec[],
  onDone: (done: number) => void,
): Promise<EncoderRow | { reason: string }> {
  const { id, execPath, ...load } = subject;
  const tally: EncoderRow = {
    id,
    target: load.target,
    library: "",
    inputs: 0,
    counts: zeros(ENCODER_OUTCOMES),
    bytesIn: 0,
    bytesOut: 0,
    slowestMs: 0,
    maxOffset: 0,
    copy4: 0,
    restarts: 0,
    failures: [],
  };
  const add = (index: number, outcome: EncoderOutcome, detail: string) => {
    tally.inputs++;
    tally.counts[outcome]++;
    if (outcome !== "ok" && tally.failures.length < 40)
      tally.failures.push({ input: describeSpec(specs[index]!), outcome, detail });
    onDone(index + 1);
  };
  const result = await runJob<EncoderResult>({
    worker: "encoders/worker.js",
    load,
    items: specs,
    ...(execPath !== undefined && { execPath }),
    hangMs: ENCODER_HANG_MS,
    onResult: (index, m) => {
      tally.bytesIn += m.in;
      tally.bytesOut += m.out;
      tally.slowestMs = Math.max(tally.slowestMs, m.ms);
      if (m.shape) {
        tally.maxOffset = Math.max(tally.maxOffset, m.shape.maxOffset);
        tally.copy4 += m.shape.copy4;
      }
      add(index, m.outcome, m.detail);
    },
    onLost: (index, lost) => add(index, lost.kind === "hang" ? "hang" : "crash", lost.detail),
  });
  if (!result.ok) return result;
  return { ...tally, library: result.library, restarts: result.restarts };
}

/** Compress every encoder input with every adapter (and raw backend) and judge the streams. */
export async function runEncoderFuzz(options: EncoderOptions = {}): Promise<EncoderReport> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const quick = options.quick ?? false;
  const specs = encoderSpecs(seed, quick);
  const run = await subjects({ codecs: options.codecs, raw: options.raw !== false });
  const failed = run.failed;
  const rows: EncoderRow[] = [];
  const runTotal = run.subjects.length * specs.length;
  let base = 0;
  for (const subject of run.subjects) {
    const label = `encoders ${subject.id}${subject.target === "raw" ? " (raw)" : ""}`;
    const result = await runRow(subject, specs, (done) =>
      options.onProgress?.(label, done, specs.length, base + done, runTotal),
    );
    base += specs.length;
    if ("reason" in result)
      failed.push({ id: subject.id, target: subject.target, reason: result.reason });
    else rows.push(result);
  }
  rows.sort((a, b) =>
    a.target === b.target ? a.id.localeCompare(b.id) : a.target === "adapter" ? -1 : 1,
  );
  return {
    schemaVersion: 1,
    date: new Date().toISOString(),
    measured: measuredTrees("@snappykit/fuzz", [...new Set(rows.map((r) => r.id))]),
    durationMs: Math.round(performance.now() - started),
    seed,
    quick,
    inputs: specs.length,
    sizes: [...new Set(specs.map((s) => s.size))],
    kinds: [...new Set(specs.map((s) => s.kind))],
    reference:
      "@snappykit/conformance's oracle decoder must give back the input; then the codec's own uncompress must too, and the stream must fit maxCompressedLength(n)",
    rows,
    failed,
  };
}

const LABELS: Record<EncoderOutcome, string> = {
  ok: "round trip ok",
  wrongBytes: "wrong bytes (valid stream)",
  invalidStream: "invalid stream",
  selfMismatch: "own decoder disagrees",
  overBound: "over maxCompressedLength",
  threw: "compress threw",
  crash: "crash",
  hang: "hang",
};

/** The encoder matrix as Markdown. */
export function renderEncoderMarkdown(report: EncoderReport): string {
  const head = [
    "codec",
    "inputs",
    ...ENCODER_OUTCOMES.map((o) => LABELS[o]),
    ...["ratio", "longest offset", "copy-4", "slowest", "verdict"],
  ];
  const align = head.map((_, i) => (i === 0 || i === head.length - 1 ? "l" : "r") as "l" | "r");
  const line = (r: EncoderRow) => {
    const bad = r.inputs - r.counts.ok;
    const cells = ENCODER_OUTCOMES.map((o) =>
      o !== "ok" && r.counts[o] > 0 ? `**${r.counts[o]}**` : String(r.counts[o]),
    );
    const name = r.target === "raw" ? `${r.id}: ${r.library}` : `${r.id} (${r.library})`;
    return [
      name,
      String(r.inputs),
      ...cells,
      (r.bytesOut / Math.max(1, r.bytesIn)).toFixed(3),
      String(r.maxOffset),
      String(r.copy4),
      `${(r.slowestMs / 1000).toFixed(2)} s`,
      bad === 0 ? "✓ 0 wrong" : `✗ ${bad} bad`,
    ];
  };
  // Padded as biome formats Markdown, so the committed report passes `biome check` as written.
  const table = (target: EncoderRow["target"]) =>
    markdownTable(head, align, report.rows.filter((r) => r.target === target).map(line));
  const out = [
    "## Encoder fuzz",
    "",
    `${report.inputs} inputs per codec (${report.kinds.join(", ")}), each at ${report.sizes.length} sizes: ${report.sizes.join(", ")} bytes. Judge: ${report.reference}. Run ${report.date.slice(0, 10)}, seed ${report.seed}; took ${formatDuration(report.durationMs)}. Ratio: compressed bytes over input bytes, all inputs. Longest offset and copy-4: the farthest back any copy reached in a stream that round-tripped, and how many copies used the 4-byte offset form (an encoder that works in independent 64 KiB blocks, as Google's does, never reaches 65,536).`,
    "",
    "### Adapters (`createCodec()` and variants)",
    "",
    table("adapter"),
    "",
    "### Raw libraries (`createRaw()`)",
    "",
    table("raw"),
  ];
  const failing = report.rows.filter((r) => r.failures.length > 0);
  if (failing.length > 0) {
    out.push("", "### Inputs that did not round-trip", "");
    for (const r of failing) {
      out.push(`- **${r.id}${r.target === "raw" ? " (raw)" : ""}**:`);
      for (const f of r.failures.slice(0, 10))
        out.push(`  - ${f.input}: ${f.outcome}, ${f.detail}`);
      if (r.failures.length > 10) out.push(`  - … ${r.failures.length - 10} more in encoders.json`);
    }
  }
  for (const f of report.failed) out.push("", `Not loaded: ${f.id} (${f.target}): ${f.reason}`);
  return out.join("\n");
}

// Encoder fuzz: every adapter codec, variant and raw backend compresses every encoder input in
// its own child process (restarted after a crash or hang), and the reference judges each stream.
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { declaredUnloadable, discoverAdapters, loadAdapters } from "@snappykit/workspace";
import { type Measured, measuredTrees } from "@snappykit/workspace/environment";
import { formatDuration, markdownTable } from "@snappykit/workspace/format";
import { adapterTargets } from "@snappykit/workspace/targets";
import { forkChild } from "../child.js";
import { inOtherNodes } from "../fuzz.js";
import type { Target } from "../protocol.js";
import { describeSpec, type EncoderInputSpec, encoderSpecs } from "./inputs.js";
import {
  ENCODER_OUTCOMES,
  type EncoderChildMessage,
  type EncoderOutcome,
  type EncoderParentMessage,
} from "./protocol.js";

/** A compress + judge call still running after this long is a hang (4 MiB in plain JS, niced, is seconds). */
export const ENCODER_HANG_MS = 120_000;

export interface EncoderFailure {
  input: string;
  outcome: EncoderOutcome;
  detail: string;
}

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
  failures: EncoderFailure[];
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
  failed: { id: string; target: Target; reason: string }[];
}

export interface EncoderOptions {
  seed?: number;
  quick?: boolean;
  codecs?: readonly string[];
  raw?: boolean;
  onProgress?: (
    row: string,
    done: number,
    total: number,
    runDone: number,
    runTotal: number,
  ) => void;
}

const workerPath = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".ts") ? "../../dist/encoders/worker.js" : "./worker.js",
    import.meta.url,
  ),
);

function spawn(
  load: EncoderParentMessage,
  execPath?: string,
): Promise<{ child: ChildProcess; library: string } | { reason: string }> {
  const { child, stderr } = forkChild(workerPath, undefined, execPath);
  return new Promise((resolve) => {
    const onExit = (code: number | null, signal: string | null) =>
      resolve({ reason: `exited while loading (${signal ?? code}): ${stderr().trim()}` });
    child.once("exit", onExit);
    child.once("message", (message: EncoderChildMessage) => {
      child.off("exit", onExit);
      if (message.type === "ready") resolve({ child, library: message.library });
      else {
        child.kill("SIGKILL");
        resolve({ reason: message.type === "loadFailed" ? message.reason : "unexpected message" });
      }
    });
    child.send(load);
  });
}

async function runRow(
  load: EncoderParentMessage & { type: "load" },
  id: string,
  specs: EncoderInputSpec[],
  onDone: (done: number) => void,
  execPath?: string,
): Promise<EncoderRow | { reason: string }> {
  const counts = Object.fromEntries(ENCODER_OUTCOMES.map((o) => [o, 0])) as Record<
    EncoderOutcome,
    number
  >;
  const row: EncoderRow = {
    id,
    target: load.target,
    library: "",
    inputs: 0,
    counts,
    bytesIn: 0,
    bytesOut: 0,
    slowestMs: 0,
    maxOffset: 0,
    copy4: 0,
    restarts: -1,
    failures: [],
  };
  const fail = (spec: EncoderInputSpec, outcome: EncoderOutcome, detail: string) => {
    if (row.failures.length < 40) row.failures.push({ input: describeSpec(spec), outcome, detail });
  };
  let next = 0;
  while (next < specs.length) {
    const started = await spawn(load, execPath);
    if (!("child" in started)) {
      if (row.restarts < 0) return started;
      throw new Error(`${id} (${load.target}) failed to restart: ${started.reason}`);
    }
    row.restarts++;
    row.library = started.library;
    const { child } = started;
    const stop = await new Promise<"done" | "hang" | "crash">((resolve) => {
      let timer = setTimeout(() => resolve("hang"), ENCODER_HANG_MS);
      child.on("message", (m: EncoderChildMessage) => {
        if (m.type !== "result") return;
        clearTimeout(timer);
        timer = setTimeout(() => resolve("hang"), ENCODER_HANG_MS);
        row.inputs++;
        row.counts[m.outcome]++;
        row.bytesIn += m.in;
        row.bytesOut += m.out;
        row.slowestMs = Math.max(row.slowestMs, m.ms);
        if (m.shape) {
          row.maxOffset = Math.max(row.maxOffset, m.shape.maxOffset);
          row.copy4 += m.shape.copy4;
        }
        if (m.outcome !== "ok") fail(specs[m.index]!, m.outcome, m.detail);
        next = m.index + 1;
        onDone(next);
        if (next >= specs.length) {
          clearTimeout(timer);
          resolve("done");
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        if (next < specs.length) {
          fail(specs[next]!, "crash", `child exited (${signal ?? `code ${code}`})`);
          resolve("crash");
        }
      });
      child.send({ type: "run", specs, from: next } satisfies EncoderParentMessage);
    });
    child.removeAllListeners("exit");
    child.kill("SIGKILL");
    if (stop === "done") break;
    row.inputs++;
    row.counts[stop]++;
    if (stop === "hang") fail(specs[next]!, "hang", `no result within ${ENCODER_HANG_MS} ms`);
    next++;
    onDone(next);
  }
  row.restarts = Math.max(0, row.restarts);
  return row;
}

/** Compress every encoder input with every adapter (and raw backend) and judge the streams. */
export async function runEncoderFuzz(options: EncoderOptions = {}): Promise<EncoderReport> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const quick = options.quick ?? false;
  const specs = encoderSpecs(seed, quick);
  let entries = discoverAdapters();
  if (options.codecs) entries = entries.filter((e) => options.codecs!.includes(e.id));
  const { loaded, failed: notLoaded } = await loadAdapters(entries);
  const subjects: {
    id: string;
    load: EncoderParentMessage & { type: "load" };
    execPath?: string;
  }[] = [
    ...adapterTargets(loaded, { raw: options.raw !== false }).map((t) => ({
      id: t.id,
      load: {
        type: "load" as const,
        entry: t.entry,
        target: t.impl,
        ...(t.impl === "adapter" && t.variant !== undefined && { variant: t.variant }),
      },
    })),
    // As in the safety matrix: one declared not to load in this Node runs in a Node line.
    ...inOtherNodes(notLoaded, options.raw !== false).map((s) => ({
      id: s.id,
      load: { type: "load" as const, entry: s.entry, target: s.target },
      ...(s.execPath !== undefined && { execPath: s.execPath }),
    })),
  ];
  const failed = notLoaded
    .filter((f) => !declaredUnloadable(f))
    .map((f) => ({
      id: f.id,
      target: "adapter" as Target,
      reason: f.reason,
    }));
  const rows: EncoderRow[] = [];
  const runTotal = subjects.length * specs.length;
  let base = 0;
  for (const subject of subjects) {
    const label = subject.load.target === "raw" ? `${subject.id} (raw)` : subject.id;
    const result = await runRow(
      subject.load,
      subject.id,
      specs,
      (done) => options.onProgress?.(label, done, specs.length, base + done, runTotal),
      subject.execPath,
    );
    base += specs.length;
    if ("reason" in result)
      failed.push({ id: subject.id, target: subject.load.target, reason: result.reason });
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

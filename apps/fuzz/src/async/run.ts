// Async fuzz: every adapter codec and variant that has async APIs gets its own child process,
// which runs the waves (waves.ts) and reports once.
import { loadavg } from "node:os";
import { type Measured, measuredTrees } from "@snappykit/workspace/environment";
import { markdownTable } from "@snappykit/workspace/format";
import { subjects } from "../fuzz.js";
import { type OnProgress, runJob } from "../runner.js";
import type { Subject } from "../serve.js";
import type { AsyncResult, AsyncStart } from "./waves.js";

/** One adapter's whole async run may take this long before it is killed and reported. */
export const ASYNC_TIMEOUT_MS = 15 * 60_000;

export interface AsyncRow {
  id: string;
  result?: AsyncResult;
  skipped?: string;
  failed?: string;
}

export interface AsyncReport {
  schemaVersion: 1;
  date: string;
  /** The packages measured, as git trees at the end of the run (reports before it: none). */
  measured?: Measured;
  durationMs: number;
  calls: number;
  wave: number;
  seed: number;
  threadpool: string;
  /** 1-minute load average at the start and the end: the machine is shared. */
  loadAverage: [number, number];
  rows: AsyncRow[];
}

export interface AsyncOptions {
  calls?: number;
  wave?: number;
  seed?: number;
  codecs?: readonly string[];
  /** Called after each adapter's run. */
  onProgress?: OnProgress;
}

/** One adapter's waves in a child of its own (worker.ts), reported once. */
async function runChild(subject: Subject, start: AsyncStart): Promise<Omit<AsyncRow, "id">> {
  const { id, execPath, ...load } = subject;
  let row: Omit<AsyncRow, "id"> = {};
  const result = await runJob<Omit<AsyncRow, "id">>({
    worker: "async/worker.js",
    load,
    items: [start],
    execArgv: ["--expose-gc"],
    ...(execPath !== undefined && { execPath }),
    hangMs: ASYNC_TIMEOUT_MS,
    onResult: (_, r) => {
      row = r;
    },
    onLost: (_, lost) => {
      row = { failed: lost.detail };
    },
  });
  return result.ok ? row : { failed: result.reason };
}

/** Run the async waves on every adapter (and variant) that has async APIs. */
export async function runAsyncFuzz(options: AsyncOptions = {}): Promise<AsyncReport> {
  const started = performance.now();
  const loadStart = loadavg()[0]!;
  const calls = options.calls ?? 30_000;
  const wave = options.wave ?? 10_000;
  const seed = options.seed ?? 1;
  const run = await subjects({ codecs: options.codecs, raw: false });
  const rows: AsyncRow[] = run.failed.map((f) => ({ id: f.id, failed: f.reason }));
  for (const [i, subject] of run.subjects.entries()) {
    rows.push({ id: subject.id, ...(await runChild(subject, { calls, wave, seed })) });
    options.onProgress?.(`async ${subject.id}`, 1, 1, i + 1, run.subjects.length);
  }
  rows.sort((a, b) => a.id.localeCompare(b.id));
  return {
    schemaVersion: 1,
    date: new Date().toISOString(),
    measured: measuredTrees("@snappykit/fuzz", [...new Set(rows.map((r) => r.id))]),
    durationMs: Math.round(performance.now() - started),
    calls,
    wave,
    seed,
    threadpool: process.env.UV_THREADPOOL_SIZE ?? "4 (libuv default)",
    loadAverage: [loadStart, loadavg()[0]!].map((l) => Math.round(l * 10) / 10) as [number, number],
    rows,
  };
}

const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** The async results as Markdown. */
export function renderAsyncMarkdown(report: AsyncReport): string {
  const ran = report.rows.filter((r) => r.result);
  const lines = [
    "## Async under concurrency",
    "",
    `Per adapter with async APIs: ${report.calls.toLocaleString("en-US")} calls in waves of ${report.wave.toLocaleString("en-US")}, every call of a wave issued before any is awaited. Mixed: compressAsync of 0 B–1 MiB plaintexts (fixture items, random, runs; each stamped with its call number), uncompressAsync of valid streams, of streams over a maxLength unique to the call (its LENGTH_LIMIT message must name it), of the suite's hostile cases, of mutated streams (judged by the oracle), and non-byte arguments. Event-loop delay (perf_hooks monitorEventLoopDelay, 10 ms resolution) is sampled from the first call issued to the last settled, so it includes issuing the whole wave synchronously ("longest issue": the guards run there) and settling 10,000 promises. "Held after GC": JS heap plus external memory after full collections, before the first wave and after the last (RSS stays high because freed pages are not handed back to the OS). libuv thread pool: ${report.threadpool}. Run ${report.date.slice(0, 10)}, seed ${report.seed}, on a shared 2-core machine: 1-minute load average ${report.loadAverage[0]} at the start, ${report.loadAverage[1]} at the end, so times and delays are upper bounds.`,
    "",
    markdownTable(
      [
        "adapter",
        "APIs",
        "calls",
        "max in flight",
        "resolved ok",
        "rejected ok",
        "wrong results",
        "misattributed errors",
        "non-SnappyError",
        "RSS start → peak → end",
        "held after GC: before → after",
        "longest issue",
        "event-loop delay p50 / p99 / max",
        "waves took",
      ],
      ["l", "l", "r", "r", "r", "r", "r", "r", "r", "l", "r", "r", "l", "r"],
      ran.map((row) => {
        const r = row.result!;
        const bold = (n: number) => (n > 0 ? `**${n}**` : "0");
        const d = r.eventLoopDelayMs;
        return [
          `${row.id} (${r.library})`,
          r.apis.join(", "),
          `${r.calls}`,
          `${r.maxInFlight}`,
          `${r.resolvedOk}`,
          `${r.rejectedOk}`,
          bold(r.wrongResults),
          bold(r.misattributedErrors),
          bold(r.nonSnappyErrors),
          `${MiB(r.rssStartBytes)} → ${MiB(r.rssPeakBytes)} → ${MiB(r.rssEndBytes)}`,
          `${MiB(r.liveStartBytes)} → ${MiB(r.liveEndBytes)}`,
          `${r.issueMs} ms`,
          `${d.p50} / ${d.p99} / ${d.max} ms`,
          `${(r.ms / 1000).toFixed(1)} s`,
        ];
      }),
    ),
  ];
  const other = report.rows.filter((r) => !r.result);
  if (other.length > 0) {
    lines.push(
      "",
      `No async run: ${other.map((r) => `${r.id} (${r.skipped ?? `failed: ${r.failed}`})`).join(", ")}.`,
    );
  }
  const problems = ran.filter((r) => r.result!.problems.length > 0);
  for (const row of problems) {
    lines.push("", `${row.id} problems (first ${row.result!.problems.length}):`);
    for (const p of row.result!.problems.slice(0, 10))
      lines.push(`- call ${p.call} (${p.kind}): ${p.problem}`);
  }
  return lines.join("\n");
}

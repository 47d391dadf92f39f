// Parent side: one long-lived child per (codec, input set) runs the inputs in order while
// the parent watches the clock and the child's memory. A hang or a runaway allocation gets
// the child killed and recorded; a crash is recorded from the exit; then a fresh child
// resumes at the next input. A child whose RSS stays inflated after a call is replaced too,
// so every call starts from a clean baseline and its peak is its own.
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { forkChild } from "./child.js";
import { rssOf } from "./memory.js";
import {
  type CallResult,
  type CellStats,
  type Expected,
  emptyStats,
  HANG_MS,
  RSS_LIMIT_BYTES,
  record,
} from "./outcome.js";
import type { ChildMessage, LoadMessage, ParentMessage, Target } from "./protocol.js";

// The worker always runs compiled: under vitest this module is the .ts source, so point at
// dist (the package's test script builds first).
const workerPath = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "../dist/worker.js" : "./worker.js", import.meta.url),
);

/** Options for {@link runCell}. */
export interface CellOptions {
  /** Kill a call running longer than this, ms. @default HANG_MS (2,000) */
  hangMs?: number;
  /** Kill the child when its RSS passes this many bytes (protects the machine). @default 6 GiB */
  rssCapBytes?: number;
  /** Replace the child when its RSS after a call exceeds its ready RSS by this much. @default 64 MiB */
  inflatedBytes?: number;
  /** Called after every input with the number done. */
  onProgress?: (done: number) => void;
}

/** One codec × one input set, ready to run. */
export interface Cell {
  entry: string;
  target: Target;
  /** Name of one of the adapter's `createVariants()` codecs, instead of `createCodec()`. */
  variant?: string;
  /** A `framed` target's implementation id (framed.ts). */
  framed?: string;
  /** The Node the children run in, when not this one (a Node line: fuzz.ts). */
  execPath?: string;
  inputs: Uint8Array[];
  expected: Expected[];
  maxLength: (number | undefined)[];
}

/** The result of {@link runCell}: the tallies, or why the backend would not load. */
export type CellResult =
  | { ok: true; library: string; stats: CellStats }
  | { ok: false; reason: string };

const LOAD_TIMEOUT_MS = 60_000;
const WATCH_INTERVAL_MS = 25;

interface Child {
  process: ChildProcess;
  library: string;
  baselineRss: number;
}

function send(child: ChildProcess, message: ParentMessage): void {
  child.send(message);
}

/** Fork a worker and wait until it has loaded and warmed up its backend. */
async function spawn(cell: Cell): Promise<Child | { reason: string }> {
  const { child, stderr } = forkChild(workerPath, undefined, cell.execPath);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ reason: `did not load within ${LOAD_TIMEOUT_MS} ms` });
    }, LOAD_TIMEOUT_MS);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      resolve({ reason: `worker exited while loading (${signal ?? code}): ${stderr().trim()}` });
    };
    child.once("exit", onExit);
    child.once("message", (message: ChildMessage) => {
      clearTimeout(timer);
      child.off("exit", onExit);
      if (message.type === "ready") {
        resolve({ process: child, library: message.library, baselineRss: message.rss });
      } else {
        child.kill("SIGKILL");
        resolve({ reason: message.type === "loadFailed" ? message.reason : "unexpected message" });
      }
    });
    const load: LoadMessage = { type: "load", entry: cell.entry, target: cell.target };
    if (cell.variant !== undefined) load.variant = cell.variant;
    if (cell.framed !== undefined) load.framed = cell.framed;
    send(child, load);
  });
}

/** Kill `child` and wait until it is gone (so its memory is back before the next one). */
function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

type Stop =
  | { kind: "done" }
  | { kind: "inflated" }
  | { kind: "hang"; peak: number }
  | { kind: "memory"; peak: number }
  | { kind: "crash"; peak: number; detail: string };

/**
 * Run every input of `cell` in isolated children, restarting after hangs, crashes and
 * memory left inflated, and return the tallies.
 */
export async function runCell(cell: Cell, options: CellOptions = {}): Promise<CellResult> {
  const hangMs = options.hangMs ?? HANG_MS;
  const rssCap = options.rssCapBytes ?? 6 * 2 ** 30;
  const inflated = options.inflatedBytes ?? RSS_LIMIT_BYTES;
  const stats = emptyStats();
  const total = cell.inputs.length;
  let next = 0;
  let library = "";
  let started = false;

  while (next < total) {
    const child = await spawn(cell);
    if (!("process" in child)) {
      // A backend that cannot load at all is reported as such; one that loaded before
      // and now fails to restart is a harness failure worth stopping for.
      if (!started) return { ok: false, reason: child.reason };
      throw new Error(`${cell.entry} (${cell.target}) failed to restart: ${child.reason}`);
    }
    if (started) stats.restarts++;
    started = true;
    library = child.library;
    const proc = child.process;

    const stop = await new Promise<Stop>((resolve) => {
      let callStart = performance.now();
      // Highest RSS sampled during the current call: the only memory figure for a call
      // that never returns.
      let callPeak = 0;
      let settled = false;
      const finish = (result: Stop) => {
        if (settled) return;
        settled = true;
        clearInterval(watch);
        proc.off("message", onMessage);
        proc.off("exit", onExit);
        resolve(result);
      };
      const onMessage = (message: ChildMessage) => {
        if (message.type !== "result") return;
        const result: CallResult = {
          outcome: message.outcome,
          ms: message.ms,
          rssGrowth: message.rssGrowth,
        };
        if (message.detail !== undefined) result.detail = message.detail;
        record(stats, message.index, cell.inputs[message.index]!, result);
        next = message.index + 1;
        options.onProgress?.(next);
        callStart = performance.now();
        callPeak = 0;
        if (next >= total) finish({ kind: "done" });
        else if (message.rssAfter - child.baselineRss > inflated) finish({ kind: "inflated" });
      };
      const onExit = (code: number | null, signal: string | null) => {
        finish({
          kind: "crash",
          peak: callPeak,
          detail: `child exited during the call (${signal ?? `code ${code}`})`,
        });
      };
      const watch = setInterval(() => {
        const rss = rssOf(proc.pid!);
        callPeak = Math.max(callPeak, rss);
        if (performance.now() - callStart > hangMs) finish({ kind: "hang", peak: callPeak });
        else if (rss > rssCap) finish({ kind: "memory", peak: callPeak });
      }, WATCH_INTERVAL_MS);
      proc.on("message", onMessage);
      proc.once("exit", onExit);
      send(proc, {
        type: "run",
        inputs: cell.inputs,
        expected: cell.expected,
        maxLength: cell.target === "adapter" ? cell.maxLength : cell.maxLength.map(() => undefined),
        from: next,
      });
    });

    await kill(proc);
    if (stop.kind === "done" || stop.kind === "inflated") continue;
    // The call at `next` never returned: charge it and resume after it.
    const input = cell.inputs[next]!;
    const grown = Math.max(0, stop.peak - child.baselineRss);
    if (stop.kind === "hang") {
      record(stats, next, input, {
        outcome: "hang",
        ms: hangMs,
        rssGrowth: grown,
        detail: `killed after ${hangMs} ms`,
      });
    } else if (stop.kind === "memory") {
      record(stats, next, input, {
        outcome: "crash",
        ms: 0,
        rssGrowth: grown,
        detail: `killed by the fuzzer: RSS passed ${Math.round(rssCap / 2 ** 20)} MiB`,
      });
    } else {
      record(stats, next, input, {
        outcome: "crash",
        ms: 0,
        rssGrowth: grown,
        detail: stop.detail,
      });
    }
    next++;
    options.onProgress?.(next);
  }
  return { ok: true, library, stats };
}

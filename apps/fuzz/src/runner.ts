// Parent side of every mode that runs in child processes (the safety matrix, the framed rows,
// the encoder and async fuzz): one long-lived child loads its subject and runs a job's items in
// order while the parent watches the clock and the child's memory. A hang or a runaway
// allocation gets the child killed, a crash is seen at its exit; either way the item is
// charged and a fresh child resumes at the next one. A child whose RSS stays inflated after an
// item is replaced too, so every item starts from a clean baseline. serve.ts is the child side.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { rssOf } from "./memory.js";

/**
 * Parent → child: what to load (once, right after the fork), then which items to run.
 * Node's IPC with `serialization: "advanced"`, so Uint8Arrays cross as bytes.
 */
export type ParentMessage =
  | { type: "load"; load: unknown }
  | { type: "run"; items: unknown[]; from: number };

/** Child → parent: loaded and warmed up, could not load, or one item's result. */
export type ChildMessage =
  | { type: "ready"; library: string; rss: number }
  | { type: "loadFailed"; reason: string }
  | { type: "result"; index: number; result: unknown; rssAfter: number };

/** Progress of a run: `done` of `total` items in the row or cell `label`, and over the run. */
export type OnProgress = (
  label: string,
  done: number,
  total: number,
  runDone: number,
  runTotal: number,
) => void;

/** Why an item never returned: its child hung, passed the RSS cap, or died. */
export interface Lost {
  kind: "hang" | "memory" | "crash";
  /** Highest RSS sampled during the item over the child's RSS when ready, bytes. */
  rssGrowth: number;
  detail: string;
}

/** Items to run in children, and what to do with each one's result. */
export interface Job<R> {
  /** The worker module, relative to dist/ (it always runs compiled). */
  worker: string;
  /** What the worker loads (its subject). */
  load: unknown;
  items: unknown[];
  /** The Node the children run in, when not this one (a Node line). */
  execPath?: string;
  /** Node flags of the child; `--no-warnings` always (WASI and node:ffi warn per process). */
  execArgv?: string[];
  /** Kill an item running longer than this, ms. */
  hangMs: number;
  /** Kill the child when its RSS passes this many bytes (protects the machine). @default none */
  rssCapBytes?: number;
  /** Replace the child when its RSS after an item exceeds its ready RSS by this. @default never */
  inflatedBytes?: number;
  onResult(index: number, result: R): void;
  onLost(index: number, lost: Lost): void;
}

/** How a job went: the subject's library and the child restarts, or why it would not load. */
export type JobResult =
  | { ok: true; library: string; restarts: number }
  | { ok: false; reason: string };

const LOAD_TIMEOUT_MS = 60_000;
const WATCH_INTERVAL_MS = 25;

interface Child {
  process: ChildProcess;
  library: string;
  baselineRss: number;
}

/** Fork the job's worker and wait until it has loaded (and warmed up) its subject. */
function spawn(job: Job<unknown>): Promise<Child | { reason: string }> {
  // Under vitest this module is the .ts source: the worker is dist's.
  const dir = import.meta.url.endsWith(".ts") ? "../dist/" : "./";
  const child = fork(fileURLToPath(new URL(dir + job.worker, import.meta.url)), [], {
    ...(job.execPath !== undefined && { execPath: job.execPath }),
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    execArgv: ["--no-warnings", ...(job.execArgv ?? [])],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 2000) stderr += chunk.toString();
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ reason: `did not load within ${LOAD_TIMEOUT_MS} ms` });
    }, LOAD_TIMEOUT_MS);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      resolve({ reason: `worker exited while loading (${signal ?? code}): ${stderr.trim()}` });
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
    child.send({ type: "load", load: job.load } satisfies ParentMessage);
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

/**
 * Run the items of `job` from `from` in `child` until they are done, the child is inflated
 * (`undefined`), or the item at `next()` is lost.
 */
function watch<R>(
  job: Job<R>,
  child: Child,
  from: number,
  done: (next: number) => void,
): Promise<Lost | undefined> {
  const proc = child.process;
  const cap = job.rssCapBytes ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve) => {
    let itemStart = performance.now();
    // Highest RSS sampled during the current item: the only memory figure for one that
    // never returns.
    let peak = 0;
    const finish = (lost?: Omit<Lost, "rssGrowth">) => {
      clearInterval(timer);
      proc.off("message", onMessage);
      proc.off("exit", onExit);
      resolve(lost && { ...lost, rssGrowth: Math.max(0, peak - child.baselineRss) });
    };
    const onMessage = (message: ChildMessage) => {
      if (message.type !== "result") return;
      job.onResult(message.index, message.result as R);
      done(message.index + 1);
      itemStart = performance.now();
      peak = 0;
      if (message.index + 1 >= job.items.length) finish();
      else if (message.rssAfter - child.baselineRss > (job.inflatedBytes ?? Infinity)) finish();
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish({
        kind: "crash",
        detail: `child exited during the call (${signal ?? `code ${code}`})`,
      });
    const timer = setInterval(() => {
      const rss = rssOf(proc.pid!);
      peak = Math.max(peak, rss);
      if (performance.now() - itemStart > job.hangMs) {
        finish({ kind: "hang", detail: `killed after ${job.hangMs} ms` });
      } else if (rss > cap) {
        const mib = Math.round(cap / 2 ** 20);
        finish({ kind: "memory", detail: `killed by the fuzzer: RSS passed ${mib} MiB` });
      }
    }, WATCH_INTERVAL_MS);
    proc.on("message", onMessage);
    proc.once("exit", onExit);
    proc.send({ type: "run", items: job.items, from } satisfies ParentMessage);
  });
}

/**
 * Run every item of `job` in isolated children, restarting after hangs, crashes and memory
 * left inflated. A subject that cannot load at all is reported as such; one that loaded
 * before and now fails to restart is a harness failure worth stopping for.
 */
export async function runJob<R>(job: Job<R>): Promise<JobResult> {
  let next = 0;
  let restarts = -1;
  let library = "";
  while (next < job.items.length) {
    const child = await spawn(job as Job<unknown>);
    if (!("process" in child)) {
      if (restarts < 0) return { ok: false, reason: child.reason };
      throw new Error(`${JSON.stringify(job.load)} failed to restart: ${child.reason}`);
    }
    restarts++;
    library = child.library;
    const lost = await watch(job, child, next, (n) => {
      next = n;
    });
    await kill(child.process);
    if (lost) job.onLost(next++, lost);
  }
  return { ok: true, library, restarts: Math.max(0, restarts) };
}

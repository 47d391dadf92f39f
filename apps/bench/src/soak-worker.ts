// The soak's child side: one codec, one scenario, in a fresh process (started by soak.ts
// through soak-child.ts). It runs the load, samples RSS every 100 ms and records every GC
// pause from perf_hooks, then answers with the raw series; soak.ts turns them into figures.
// Work yields to the event loop (setImmediate) about every millisecond and after every
// big-blob round, as a node's message handlers do: snappy@7 frees its outputs from
// finalizers that only run there, and a loop that never yields is a leak of the harness.
import { PerformanceObserver } from "node:perf_hooks";
import { loadTarget, MARK, readInputs, type TargetSpec } from "./fork.js";

/** What soak.ts asks one child to do. */
export interface SoakTask {
  readonly spec: TargetSpec;
  readonly inputsDir: string;
  readonly scenario: "gossip" | "big-blob";
  /** gossip: run this long. */
  readonly seconds: number;
  /** big-blob: compress + uncompress rounds. */
  readonly rounds: number;
}

/** Input rows soak.ts writes (fork.ts writeInputs), by index. */
export const SOAK_ROWS = {
  gossipRaw: 0,
  gossipCompressed: 1,
  blobRaw: 2,
  blobCompressed: 3,
} as const;

/** RSS sampling period. */
export const SAMPLE_MS = 100;

/** The raw series one child reports. */
export interface SoakSeries {
  /** [ms since start, RSS bytes], every {@link SAMPLE_MS}, first and last included. */
  readonly rss: readonly (readonly [number, number])[];
  /** Duration of every GC (ms), from PerformanceObserver "gc" entries. */
  readonly gcPauses: readonly number[];
  /** Messages (gossip: one uncompress + one compress each) or rounds (big blob). */
  readonly ops: number;
  readonly elapsedMs: number;
  /** big-blob: wall time of each round (compress + uncompress), ms. */
  readonly roundMs: readonly number[];
  /** Peak RSS of the process's life (getrusage maxrss), bytes. */
  readonly maxRss: number;
  /** RSS after two full GCs with event-loop turns between, at the end (0 without --expose-gc). */
  readonly rssAfterGc: number;
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Run one task in this process. */
export async function runSoakTask(task: SoakTask): Promise<SoakSeries> {
  const target = await loadTarget(task.spec);
  const rows = readInputs(task.inputsDir);
  const b = target.backend;
  const gcPauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcPauses.push(e.duration);
  });
  observer.observe({ entryTypes: ["gc"] });
  const t0 = performance.now();
  const rss: [number, number][] = [[0, process.memoryUsage.rss()]];
  const sampler = setInterval(() => {
    rss.push([performance.now() - t0, process.memoryUsage.rss()]);
  }, SAMPLE_MS);
  let ops = 0;
  let sink = 0;
  const roundMs: number[] = [];
  if (task.scenario === "gossip") {
    const raw = rows[SOAK_ROWS.gossipRaw]!.items;
    const compressed = rows[SOAK_ROWS.gossipCompressed]!.items;
    const end = t0 + task.seconds * 1000;
    let i = 0;
    while (performance.now() < end) {
      const slice = performance.now() + 1;
      do {
        // Decode what a peer sent, encode a message to publish.
        sink += b.uncompress(compressed[i]!).length + b.compress(raw[i]!).length;
        i = (i + 1) % raw.length;
        ops++;
      } while (performance.now() < slice);
      await yieldTurn();
    }
  } else {
    const [blob] = rows[SOAK_ROWS.blobRaw]!.items;
    const [blobCompressed] = rows[SOAK_ROWS.blobCompressed]!.items;
    for (let r = 0; r < task.rounds; r++) {
      const s = performance.now();
      sink += b.compress(blob!).length + b.uncompress(blobCompressed!).length;
      roundMs.push(performance.now() - s);
      ops++;
      await yieldTurn();
    }
  }
  const elapsedMs = performance.now() - t0;
  clearInterval(sampler);
  rss.push([elapsedMs, process.memoryUsage.rss()]);
  observer.disconnect();
  // What a full collection gives back: tells garbage not yet collected from memory lost.
  const gc = (globalThis as { gc?: () => void }).gc;
  let rssAfterGc = 0;
  if (gc) {
    for (let k = 0; k < 2; k++) {
      gc();
      await yieldTurn();
    }
    rssAfterGc = process.memoryUsage.rss();
  }
  if (sink < 0) throw new Error("unreachable"); // keeps the outputs observable
  return {
    rss,
    gcPauses,
    ops,
    elapsedMs,
    roundMs,
    maxRss: process.resourceUsage().maxRSS * 1024,
    rssAfterGc,
  };
}

/** The child's side: run the task from argv, answer with one protocol line. */
export async function serveSoak(arg: string): Promise<void> {
  const send = (reply: unknown) => process.stdout.write(`${MARK}${JSON.stringify(reply)}\n`);
  try {
    send({ ok: true, value: await runSoakTask(JSON.parse(arg) as SoakTask) });
  } catch (error) {
    send({ ok: false, error: (error as Error).message });
  }
}

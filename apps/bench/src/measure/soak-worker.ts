// The soak's child side: one codec, one scenario, in a fresh process (started by
// soak-runner.ts through soak-child.ts). It runs the load, samples RSS every 100 ms and
// records every GC pause from perf_hooks, then answers with the raw series;
// summarise/trend.ts turns them into figures.
// Work yields to the event loop (setImmediate) about every millisecond and after every
// big-blob round, as a node's message handlers do: snappy@7 frees its outputs from
// finalizers that only run there, and a loop that never yields is a leak of the harness.
import { PerformanceObserver } from "node:perf_hooks";
import { SAMPLE_MS, SOAK_ROWS, type SoakSeries, type SoakTask } from "../model/soak.js";
import { MARK, readInputs } from "./fork.js";
import { loadTarget } from "./local.js";
import { yieldTurn } from "./run.js";

/** Run one task in this process. */
export async function runSoakTask(task: SoakTask): Promise<SoakSeries> {
  const target = await loadTarget(task.spec);
  const rows = readInputs(task.inputsDir);
  const raw = rows[SOAK_ROWS.raw]!.items;
  const compressed = rows[SOAK_ROWS.compressed]!.items;
  rows.length = 0;
  const b = target.backend;
  // Start from a collected heap: reading the inputs left a file-sized buffer behind.
  const gc = (globalThis as { gc?: () => void }).gc;
  const collect = async () => {
    for (let k = 0; k < 2 && gc; k++) {
      gc();
      await yieldTurn();
    }
  };
  await collect();
  const maxRssBefore = process.resourceUsage().maxRSS * 1024;
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
  const roundRss: [number, number][] = [];
  if (task.scenario === "gossip") {
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
    const [blob] = raw;
    const [blobCompressed] = compressed;
    for (let r = 0; r < task.rounds; r++) {
      const s = performance.now();
      sink += b.compress(blob!).length + b.uncompress(blobCompressed!).length;
      roundMs.push(performance.now() - s);
      ops++;
      await yieldTurn();
      roundRss.push([performance.now() - t0, process.memoryUsage.rss()]);
    }
  }
  const elapsedMs = performance.now() - t0;
  clearInterval(sampler);
  rss.push([elapsedMs, process.memoryUsage.rss()]);
  observer.disconnect();
  // What a full collection gives back: tells garbage not yet collected from memory lost.
  let rssAfterGc = 0;
  if (gc) {
    await collect();
    rssAfterGc = process.memoryUsage.rss();
  }
  if (sink < 0) throw new Error("unreachable"); // keeps the outputs observable
  return {
    rss,
    gcPauses,
    ops,
    elapsedMs,
    roundMs,
    roundRss,
    maxRssBefore,
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

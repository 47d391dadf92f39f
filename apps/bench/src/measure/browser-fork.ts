// The page side of a `--runtime browser` fork: bundled with one adapter, it builds the
// target the parent asks for and times its cases with the same LocalWorker as a process
// fork, answering the parent's calls through `globalThis.benchFork` (browser.ts).
import type { AdapterModule, RawModule } from "@snappykit/core";
import type { RowInputs, TargetSpec } from "../model/case.js";
import type { TimingOptions, Turn } from "../model/timing.js";
import { LocalWorker, targetOf } from "./local.js";

// run.ts yields one event-loop turn between batches with setImmediate, which browsers lack.
// A MessageChannel message is the nearest thing (setTimeout(0) is clamped to 4 ms).
if (typeof globalThis.setImmediate === "undefined") {
  const channel = new MessageChannel();
  const queue: (() => void)[] = [];
  // (Typed by @types/node's MessagePort, which has no onmessage; this runs in a page.)
  Object.assign(channel.port1, { onmessage: () => queue.shift()?.() });
  Object.assign(globalThis, {
    setImmediate: (callback: () => void) => {
      queue.push(callback);
      channel.port2.postMessage(0);
    },
  });
}

/** What the parent calls in the page, one request at a time. */
export interface BenchFork {
  start(spec: TargetSpec, rows: readonly RowInputs[], timing: TimingOptions): Promise<true>;
  warm(row: number): Promise<number>;
  sample(row: number): Promise<Turn>;
  allocation(row: number): Promise<{ heap: number; external: number }>;
}

/** Expose `benchFork` over the adapter module `mod` (its main entry or its `./raw` entry). */
export function serveFork(mod: Partial<AdapterModule & RawModule>): void {
  let worker: LocalWorker | undefined;
  const started = () => {
    if (!worker) throw new Error("benchFork.start was not called");
    return worker;
  };
  const fork: BenchFork = {
    async start(spec, rows, timing) {
      worker = LocalWorker.of(spec, await targetOf(mod, spec), rows, timing);
      return true;
    },
    warm: (row) => started().warm(row),
    sample: (row) => started().sample(row),
    allocation: (row) => started().allocation(row),
  };
  Object.assign(globalThis, { benchFork: fork });
}

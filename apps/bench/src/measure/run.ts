// Timing inside one process (CaseTimer): each sample is one call of the case's batch function,
// timed with the case's clock, with one event-loop turn (setImmediate) before each batch,
// outside the timed region. Not mitata: its batches ignore an output cap and its sample
// array slowed the code beside it (docs/findings/2026-12-mitata-measure-per-turn.md).
// snappy@7 frees its output buffers from finalizers that only run on the event loop: a loop
// that never yields grows RSS without bound and charges the page faults to that library.
// Every backend gets the same treatment. Which process a case runs in, and when, is
// schedule.ts's business.
import { getHeapStatistics } from "node:v8";
import type { OpCall, OpSpec, Target } from "../model/case.js";
import type { Allocation, Clock, TimingOptions, Turn } from "../model/timing.js";
import { medianOf } from "../summarise/stats.js";
import { place } from "./placement.js";

/** One case as a process times it: a target, an op, and the op's inputs. */
export interface TimedCase {
  readonly target: Target;
  readonly op: OpSpec;
  readonly inputs: readonly Uint8Array[];
  /** Bytes one op writes, to cap a batch's output. */
  readonly outputBytes: number;
  /** `--slow-down`: the fraction of each batch's time to busy-wait inside its timed region. */
  readonly slowdown?: number;
}

export const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const wallNow = () => performance.now() * 1e6;
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};

type Batch = (k: number) => void | Promise<void>;

/** Where batches leave their results, so no call's result is dead code to the compiler. */
const sink = { value: 0 };
const keep = (x: number) => {
  sink.value ^= x;
};

/** The clock a case's batches are timed with: async ops always on the wall clock. */
function clockOf(c: TimedCase, clock: Clock): () => number {
  return clock === "cpu" && !c.op.async ? cpuNow : wallNow;
}

/**
 * Build the batch function for one case from source, so its call site has its own
 * feedback and stays monomorphic (a shared loop would see every backend and go
 * megamorphic, charging dispatch cost unevenly). It runs `k` ops; the caller times the call.
 *
 * With `slowdown` the batch spins for that fraction of its own time before it returns:
 * CPU spent like slower code's, with a handful of clock reads per batch. Spinning after each
 * call instead read the clock around every call, which added 50-130 % to a 0.3 us call rather
 * than the fraction asked for.
 */
function makeBatch(c: TimedCase, call: OpCall, now: () => number): Batch {
  const method = JSON.stringify(call.method);
  // An into-call writes every item into the one array, and returns the length written; both
  // at offsets that never alias modulo 4096 (placement.ts).
  const placed = call.into === undefined ? undefined : place(c.inputs, call.into);
  const inputs = placed?.inputs ?? c.inputs;
  const output = placed?.output;
  const invoke =
    output === undefined ? `r[${method}](items[i]).length` : `r[${method}](items[i], out)`;
  const body = `
    const n = items.length;
    let sink = 0;
    ${c.slowdown ? "const t0 = now();" : ""}
    for (let k = 0; k < K; k++) {
      for (let i = 0; i < n; i++) sink += ${c.op.async ? `(await r[${method}](items[i])).length` : invoke};
    }
    ${c.slowdown ? `const spun = now(); const until = spun + (spun - t0) * ${c.slowdown}; while (now() < until);` : ""}
    keep(sink);`;
  const Ctor = c.op.async
    ? (Object.getPrototypeOf(async () => {}).constructor as FunctionConstructor)
    : Function;
  const fn = new Ctor("r", "items", "now", "keep", "K", "out", body) as (
    ...args: unknown[]
  ) => void | Promise<void>;
  return (k) => fn(call.receiver, inputs, now, keep, k, output);
}

type GcOptions = { type?: "major" | "minor" };

function gc(options?: GcOptions): void {
  (globalThis as { gc?: (o?: GcOptions) => void }).gc?.(options);
}

/** True when node runs with --expose-gc (needed for allocation figures and clean runs). */
export function hasGc(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === "function";
}

function probe(): [number, number] {
  const s = getHeapStatistics();
  return [s.used_heap_size + s.malloced_memory, s.external_memory];
}

/**
 * Bytes one call of `op` allocates, median of `runs`. Each run starts from an empty young
 * generation, so a single op does not trigger a scavenge, and with ArrayBuffer sweeping
 * finished: after one GC V8 frees dead backing stores concurrently, and those late frees
 * would be subtracted from the op's figure; a second GC finishes them. Minor GCs keep
 * this cheap (a full GC costs ~10-30 ms with every payload loaded); one full pair per case
 * first clears what earlier cases promoted to the old generation.
 */
async function allocatedBy(op: () => unknown, runs: number): Promise<Allocation> {
  gc();
  gc();
  const heap: number[] = [];
  const external: number[] = [];
  for (let r = 0; r < runs; r++) {
    await yieldTurn(); // let pending finalizers free native outputs first
    gc({ type: "minor" });
    gc({ type: "minor" });
    const [h0, e0] = probe();
    await op();
    const [h1, e1] = probe();
    heap.push(h1 - h0);
    external.push(e1 - e0);
  }
  return { heap: medianOf(heap), external: medianOf(external) };
}

/** What {@link settleHeap} did: bytes it allocated and dropped, and whether a GC freed them. */
export interface Settled {
  readonly bytes: number;
  readonly freed: boolean;
}

const SETTLE_CHUNK = 1 << 16;
const SETTLE_MAX_BYTES = 256 << 20;

/**
 * Bring a fresh V8 process's garbage collector to the state of one that has been running,
 * before anything is timed. A fresh process keeps every dropped ArrayBuffer until its first
 * GC driven by external memory, some 64 MiB in, so until then each output lands on pages
 * never touched before: on Node 26 here a process timing only the beacon block's row
 * compressed it with ts in ~330 µs for its first ~1,500 calls and in ~75 µs after, and one
 * that had timed the smaller rows first was at ~75 µs from the start. A row's speed then
 * depended on the rows before it, and in 7-fork runs ts's and napi's per-fork medians on
 * block rows spread 4× (docs/findings/2026-12-compare-planted-slowdown.md). Forced gc()
 * calls do not end that state; allocations do. So: 64 KiB arrays, dropped at once, until
 * external memory falls (a GC freed them), at most 256 MiB. A runtime whose heap statistics
 * do not count external memory (Bun's JavaScriptCore) stops after the first chunk.
 */
export function settleHeap(stats: () => { external_memory: number } = getHeapStatistics): Settled {
  let last = stats().external_memory;
  let bytes = 0;
  let held: Uint8Array | undefined;
  while (bytes < SETTLE_MAX_BYTES) {
    for (let i = 0; i < 16; i++) held = new Uint8Array(SETTLE_CHUNK);
    keep(held?.length ?? 0);
    bytes += 16 * SETTLE_CHUNK;
    const now = stats().external_memory;
    if (now < last) return { bytes, freed: true };
    if (now === last) break; // not counted here: nothing to wait for
    last = now;
  }
  return { bytes, freed: false };
}

// What the probe itself allocates (its result object), measured once and subtracted.
let probeCost: Promise<Allocation> | undefined;

async function allocation(batch: Batch, runs: number): Promise<Allocation> {
  if (!hasGc()) return { heap: Number.NaN, external: Number.NaN };
  probeCost ??= allocatedBy(() => 0, 5);
  const base = await probeCost;
  const used = await allocatedBy(() => batch(1), runs);
  return {
    heap: Math.max(0, used.heap - base.heap),
    external: Math.max(0, used.external - base.external),
  };
}

/** Each fork's external memory now: what V8 counts, `arrayBuffers` included (not added twice). */
const externalNow = () => process.memoryUsage().external;

/**
 * Peak external memory over one op on every item (a response's chunks), as a client that
 * keeps the decoded chunks holds it: after two full GCs, `external` sampled wherever the op
 * hands control back (`sample`, each piece a stream delivers) and after each item, minus the
 * level before. NaN without --expose-gc or without `process` (a browser page).
 */
export async function peakExternal(
  sampled: NonNullable<OpCall["sampled"]>,
  inputs: readonly Uint8Array[],
): Promise<number> {
  if (!hasGc() || typeof process === "undefined") return Number.NaN;
  await yieldTurn();
  gc();
  gc();
  const base = externalNow();
  let top = base;
  const sample = () => {
    top = Math.max(top, externalNow());
  };
  const held: unknown[] = [];
  for (const item of inputs) {
    held.push(await sampled(item, sample));
    sample();
  }
  keep(held.length);
  return top - base;
}

/** Batches per case and fork at most: a clock too coarse to see a batch never fills the budget. */
export const MAX_BATCHES = 1 << 12;

/**
 * One case in this process: warm it up (which sizes its batch), then sample it in turns,
 * then measure what one op allocates. The caller interleaves the turns of different cases.
 * A case has its batches once it holds `minSamples` of them and `timeMs` of their time (or
 * MAX_BATCHES); the cpp row's timer (apps/bench/native) applies the same rule.
 */
export class CaseTimer {
  private readonly now: () => number;
  private readonly call: OpCall;
  private readonly batch: Batch;
  private k = 1;
  /** Sampling is open between the warm-up and the turn that completes the case. */
  private open = false;
  private readonly samples: number[] = [];
  /** Batch time so far, in the clock's ns. */
  private total = 0;

  constructor(
    readonly c: TimedCase,
    private readonly options: TimingOptions,
  ) {
    this.now = clockOf(c, options.clock);
    const call = c.op.call(c.target, c.inputs);
    if (!call) throw new Error(`${c.target.codec} cannot run ${c.op.id}`);
    this.call = call;
    this.batch = makeBatch(c, call, this.now);
  }

  /** Untimed warm-up; grows the batch towards `batchMs` within the output cap; its size. */
  async warm(): Promise<number> {
    const { options, now, batch } = this;
    const maxByBytes = Math.max(
      1,
      Math.floor(options.batchMaxBytes / Math.max(1, this.c.outputBytes)),
    );
    let best = Number.POSITIVE_INFINITY;
    let k = 1;
    const warmEnd = performance.now() + options.warmupMs;
    do {
      await yieldTurn();
      const t0 = now();
      await batch(k);
      best = Math.min(best, (now() - t0) / k);
      k = Math.max(
        1,
        Math.min(maxByBytes, Math.round((options.batchMs * 1e6) / Math.max(best, 1))),
      );
    } while (performance.now() < warmEnd);
    this.k = Math.min(k, 100_000);
    // Sampling starts without the warm-up's garbage.
    gc();
    this.open = true;
    return this.k;
  }

  private done(): boolean {
    const { minSamples, timeMs } = this.options;
    const n = this.samples.length;
    return n >= MAX_BATCHES || (n >= minSamples && this.total >= timeMs * 1e6);
  }

  /**
   * One turn: batches until `sliceMs` of batch time has passed (at least one), or until the
   * case has its batches; then, once it has, every batch's ns per op.
   */
  async sample(): Promise<Turn> {
    if (!this.open) throw new Error("no turn to take: warm the case up first");
    const { now, batch, k, samples } = this;
    let spent = 0;
    do {
      await yieldTurn();
      const started = performance.now();
      const t0 = now();
      await batch(k);
      const t = now() - t0;
      spent += performance.now() - started;
      samples.push(t / k);
      this.total += t;
    } while (!this.done() && spent < this.options.sliceMs);
    if (!this.done()) return { done: false };
    this.open = false;
    return { done: true, samples };
  }

  /** Bytes one op allocates (NaN without --expose-gc), and its peak where the op samples. */
  async allocation(): Promise<Allocation> {
    const alloc = await allocation(this.batch, this.options.allocationRuns);
    const { sampled } = this.call;
    return sampled ? { ...alloc, peak: await peakExternal(sampled, this.c.inputs) } : alloc;
  }
}

// Timing. mitata's `measure()` drives the sampling and computes the statistics; each
// sample is one batch of ops that we time ourselves, so we can yield one event-loop turn
// (setImmediate) between batches, outside the timed region. snappy@7 frees its output
// buffers from finalizers that only run on the event loop: a loop that never yields grows
// RSS without bound and charges the page faults to that library. Every backend gets the
// same treatment.
import { getHeapStatistics } from "node:v8";
import { do_not_optimize, measure } from "mitata";
import { type BenchCase, caseKey, type TargetImpl } from "./cases.js";

/** How long and how hard to time each case. */
export interface TimingOptions {
  /** Untimed warm-up per case (JIT tier-up, wasm compilation), also sizes the batch. */
  readonly warmupMs: number;
  /** Timed budget per case (mitata's `min_cpu_time`, in wall time including yields). */
  readonly timeMs: number;
  /** At least this many batches per case (mitata's `min_samples`). */
  readonly minSamples: number;
  /** Aim for batches this long: long enough to time, short enough for many samples. */
  readonly batchMs: number;
  /** Cap on the bytes a batch writes, so no backend accumulates unfreed output. */
  readonly batchMaxBytes: number;
  /** Single ops measured for allocation (the median is reported). */
  readonly allocationRuns: number;
  /**
   * What a batch is timed with: `wall` (performance.now) or `cpu` (process CPU time, all
   * threads: immune to waiting for a core on a loaded machine, but blind to idle waits).
   * Async ops are always timed on the wall clock: their cost is latency.
   */
  readonly clock: Clock;
  /** Interleaved sampling rounds per case (see {@link runCases}). */
  readonly rounds: number;
}

/** The clock batches are timed with. */
export type Clock = "wall" | "cpu";

/** Defaults of a full run: ≤ 5 minutes for ~9 codecs on the default payloads, 2 cores. */
export const FULL_TIMING: TimingOptions = {
  warmupMs: 50,
  timeMs: 500,
  minSamples: 20,
  batchMs: 2,
  batchMaxBytes: 4 << 20,
  allocationRuns: 5,
  clock: "wall",
  rounds: 4,
};

/** `--quick`: the same matrix, an order of magnitude less time per case (CI). */
export const QUICK_TIMING: TimingOptions = {
  warmupMs: 10,
  timeMs: 60,
  minSamples: 5,
  batchMs: 1,
  batchMaxBytes: 4 << 20,
  allocationRuns: 3,
  clock: "wall",
  rounds: 2,
};

/** Every figure measured for one case. Times are nanoseconds per op (all items). */
export interface CaseResult {
  readonly key: string;
  readonly codec: string;
  readonly impl: TargetImpl;
  readonly library: string;
  readonly payload: string;
  readonly op: string;
  readonly items: number;
  /** Uncompressed bytes one op processes. */
  readonly bytes: number;
  /** Ops per timed batch (one sample = the mean op time of one batch). */
  readonly batch: number;
  /** Batches timed, after mitata drops the two fastest and two slowest. */
  readonly samples: number;
  readonly p50: number;
  readonly p75: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
  readonly avg: number;
  /**
   * Bytes allocated per op: `heap` is mitata's probe (V8 `used_heap_size +
   * malloced_memory`), `external` the ArrayBuffer/Buffer backing stores that probe does
   * not see (where output bytes live). Median of single ops after a forced GC.
   */
  readonly alloc: { readonly heap: number; readonly external: number };
  /** Wall time the whole case took (warm-up, sampling, allocation), for budgeting runs. */
  readonly wallMs: number;
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const wallNow = () => performance.now() * 1e6;
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};

type Batch = (k: number) => number | Promise<number>;

/**
 * Build the batch function for one case from source, so its call site has its own
 * feedback and stays monomorphic (a shared loop would see every backend and go
 * megamorphic, charging dispatch cost unevenly). Returns ns per op for `k` ops.
 */
function makeBatch(c: BenchCase, clock: Clock): Batch {
  const now = clock === "cpu" && !c.op.async ? cpuNow : wallNow;
  const call = c.op.call(c.target);
  if (!call) throw new Error(`${c.target.codec} cannot run ${c.op.id}`);
  const inputs = c.op.inputs(c.prepared);
  const method = JSON.stringify(call.method);
  const body = `
    const n = items.length;
    let sink = 0;
    const t0 = now();
    for (let k = 0; k < K; k++) {
      for (let i = 0; i < n; i++) sink += (${c.op.async ? "await " : ""}r[${method}](items[i])).length;
    }
    const t1 = now();
    keep(sink);
    return (t1 - t0) / K;`;
  const Ctor = c.op.async
    ? (Object.getPrototypeOf(async () => {}).constructor as FunctionConstructor)
    : Function;
  const fn = new Ctor("r", "items", "now", "keep", "K", body) as (
    ...args: unknown[]
  ) => number | Promise<number>;
  return (k) => fn(call.receiver, inputs, now, do_not_optimize, k);
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1] ?? 0;
};

/**
 * Bytes one call of `op` allocates, median of `runs`. Each run starts from an empty young
 * generation, so a single op does not trigger a scavenge, and with ArrayBuffer sweeping
 * finished: after one GC V8 frees dead backing stores concurrently, and those late frees
 * would be subtracted from the op's figure; a second GC finishes them. Minor GCs keep
 * this cheap (a full GC costs ~10-30 ms with every payload loaded); one full pair per case
 * first clears what earlier cases promoted to the old generation.
 */
async function allocatedBy(
  op: () => unknown,
  runs: number,
): Promise<{ heap: number; external: number }> {
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
  return { heap: median(heap), external: median(external) };
}

// What the probe itself allocates (its result object), measured once and subtracted.
let probeCost: Promise<{ heap: number; external: number }> | undefined;

async function allocation(batch: Batch, runs: number): Promise<{ heap: number; external: number }> {
  if (!hasGc()) return { heap: Number.NaN, external: Number.NaN };
  probeCost ??= allocatedBy(() => 0, 5);
  const base = await probeCost;
  const used = await allocatedBy(() => batch(1), runs);
  return {
    heap: Math.max(0, used.heap - base.heap),
    external: Math.max(0, used.external - base.external),
  };
}

/** A case being timed: its batch function, batch size and the samples so far. */
interface CaseRun {
  readonly c: BenchCase;
  readonly batch: Batch;
  readonly K: number;
  readonly samples: number[];
  wallMs: number;
}

/** Warm a case up and size its batch: grow towards batchMs, within the output cap. */
async function prepareCase(c: BenchCase, options: TimingOptions): Promise<CaseRun> {
  const started = performance.now();
  const batch = makeBatch(c, options.clock);
  const outputBytes = Math.max(1, c.op.outputBytes(c.prepared));
  const maxByBytes = Math.max(1, Math.floor(options.batchMaxBytes / outputBytes));
  let best = Number.POSITIVE_INFINITY;
  let k = 1;
  const warmEnd = performance.now() + options.warmupMs;
  do {
    await yieldTurn();
    best = Math.min(best, await batch(k));
    k = Math.max(1, Math.min(maxByBytes, Math.round((options.batchMs * 1e6) / Math.max(best, 1))));
  } while (performance.now() < warmEnd);
  return { c, batch, K: Math.min(k, 100_000), samples: [], wallMs: performance.now() - started };
}

/**
 * One round of mitata sampling for a case: `1 / rounds` of its budget. mitata's GC before
 * sampling runs in the first round only (a full GC costs 10-30 ms here).
 */
async function sampleRound(run: CaseRun, options: TimingOptions): Promise<void> {
  const started = performance.now();
  const { batch, K } = run;
  const stats = await measure(
    function* () {
      yield {
        budget: "real",
        manual: async () => {
          await yieldTurn(); // outside the timed region: finalizers and frees run here
          return batch(K);
        },
      };
    },
    {
      min_cpu_time: (options.timeMs / options.rounds) * 1e6,
      min_samples: Math.max(1, Math.ceil(options.minSamples / options.rounds)),
      warmup_samples: 0,
      ...(hasGc() && run.samples.length === 0 ? {} : { gc: false }),
    },
  );
  run.samples.push(...stats.samples);
  run.wallMs += performance.now() - started;
}

const at = (sorted: readonly number[], q: number) => sorted[(q * (sorted.length - 1)) | 0]!;

async function finishCase(run: CaseRun, options: TimingOptions): Promise<CaseResult> {
  const started = performance.now();
  const alloc = await allocation(run.batch, options.allocationRuns);
  const s = [...run.samples].sort((a, b) => a - b);
  const { target, prepared, op } = run.c;
  return {
    key: caseKey({
      codec: target.codec,
      impl: target.impl,
      payload: prepared.payload.name,
      op: op.id,
    }),
    codec: target.codec,
    impl: target.impl,
    library: target.library,
    payload: prepared.payload.name,
    op: op.id,
    items: prepared.payload.items.length,
    bytes: prepared.payload.bytes,
    batch: run.K,
    samples: s.length,
    // Percentiles as mitata computes them, over the samples of every round.
    p50: at(s, 0.5),
    p75: at(s, 0.75),
    p99: at(s, 0.99),
    min: s[0]!,
    max: s[s.length - 1]!,
    avg: s.reduce((a, v) => a + v, 0) / s.length,
    alloc,
    wallMs: run.wallMs + performance.now() - started,
  };
}

/** Time one case on its own (all rounds back to back), then measure allocation. */
export async function runCase(c: BenchCase, options: TimingOptions): Promise<CaseResult> {
  const run = await prepareCase(c, options);
  for (let r = 0; r < options.rounds; r++) await sampleRound(run, options);
  return finishCase(run, options);
}

/** Progress of a run, for the live line. */
export interface Progress {
  readonly index: number;
  readonly total: number;
  readonly current: BenchCase;
  readonly elapsedMs: number;
  /** Estimated time left (see {@link estimateRemaining}); undefined before the first case. */
  readonly etaMs: number | undefined;
}

const opBytes = (c: BenchCase) => c.prepared.payload.bytes;

/**
 * Time left, from a least-squares fit of case wall time against payload bytes over the
 * finished cases (cases run small payloads first, so a plain mean would underestimate
 * the large ones at the end); falls back to the mean until sizes differ.
 */
export function estimateRemaining(
  done: readonly { bytes: number; ms: number }[],
  remainingBytes: readonly number[],
): number | undefined {
  if (done.length === 0) return undefined;
  const n = done.length;
  const mx = done.reduce((a, d) => a + d.bytes, 0) / n;
  const my = done.reduce((a, d) => a + d.ms, 0) / n;
  const sxx = done.reduce((a, d) => a + (d.bytes - mx) ** 2, 0);
  const slope =
    sxx === 0 ? 0 : Math.max(0, done.reduce((a, d) => a + (d.bytes - mx) * (d.ms - my), 0) / sxx);
  const intercept = my - slope * mx;
  return remainingBytes.reduce((a, b) => a + Math.max(my / 4, intercept + slope * b), 0);
}

/**
 * Run every case. Cases of one row (same payload and op) are timed in interleaved rounds,
 * A B C A B C ..., so a slow spell of the machine lands on every codec of the row rather
 * than on whichever case it happened to hit; this is what keeps the comparison within a
 * row (and adapter vs raw library) fair on a shared machine. Progress fires once per case,
 * when it is first warmed up.
 */
export async function runCases(
  cases: readonly BenchCase[],
  options: TimingOptions,
  onProgress?: (p: Progress) => void,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const done: { bytes: number; ms: number }[] = [];
  const start = performance.now();
  let i = 0;
  while (i < cases.length) {
    const first = cases[i]!;
    let end = i;
    while (
      end < cases.length &&
      cases[end]!.prepared === first.prepared &&
      cases[end]!.op === first.op
    ) {
      end++;
    }
    const runs: CaseRun[] = [];
    for (let j = i; j < end; j++) {
      onProgress?.({
        index: j + 1,
        total: cases.length,
        current: cases[j]!,
        elapsedMs: performance.now() - start,
        etaMs:
          done.length > 0
            ? estimateRemaining(done, cases.slice(j).map(opBytes))
            : j > 0 // still in the first row: nothing finished yet, extrapolate its pace
              ? ((performance.now() - start) / j) * (cases.length - j)
              : undefined,
      });
      runs.push(await prepareCase(cases[j]!, options));
      // The row's first round runs as its cases are prepared, so progress keeps moving.
      await sampleRound(runs[runs.length - 1]!, options);
    }
    for (let r = 1; r < options.rounds; r++) {
      for (const run of runs) await sampleRound(run, options);
    }
    for (const run of runs) {
      const result = await finishCase(run, options);
      results.push(result);
      done.push({ bytes: opBytes(run.c), ms: result.wallMs });
    }
    i = end;
  }
  return results;
}

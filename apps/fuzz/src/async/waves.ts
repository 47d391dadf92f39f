// The async fuzz proper (run in a child by worker.ts): takes one adapter codec and puts waves of
// async calls in flight at once, then checks every result against its own plan: the right bytes, or a
// SnappyError with the right code (naming the call's own maxLength where it has one).
// Samples RSS and the event-loop delay throughout.
import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { firstDifference } from "@snappykit/conformance/cases";
import { isSnappyError, type SnappyCodec } from "@snappykit/core";
import { describeError, zeros } from "../outcome.js";
import { CALL_KINDS, type CallKind, type PlannedCall, planWave } from "./plan.js";

export interface AsyncStart {
  calls: number;
  wave: number;
  seed: number;
}

export interface AsyncProblem {
  call: number;
  kind: CallKind;
  problem: string;
}

export interface AsyncResult {
  library: string;
  apis: string[];
  calls: number;
  waves: number;
  maxInFlight: number;
  byKind: Record<CallKind, number>;
  resolvedOk: number;
  rejectedOk: number;
  /** Resolved with other bytes, or resolved where it must reject. */
  wrongResults: number;
  /** Rejected where it must resolve, with another code, or naming another call's limit. */
  misattributedErrors: number;
  /** Rejected with something that is not a SnappyError. */
  nonSnappyErrors: number;
  /** Threw synchronously instead of returning a rejected promise. */
  syncThrows: number;
  problems: AsyncProblem[];
  rssStartBytes: number;
  rssPeakBytes: number;
  rssEndBytes: number;
  /** JS heap + external memory after full GCs, before the waves and after: what is held, unlike RSS. */
  liveStartBytes: number;
  liveEndBytes: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /** Longest synchronous issue of one wave (the guards run here), ms. */
  issueMs: number;
  /** Wall time of the waves (planning excluded), ms. */
  ms: number;
}

/**
 * Full collections (the parent forks us with --expose-gc), with time between them for
 * native finalizers to release their buffers.
 */
async function collect(): Promise<void> {
  // Over a second: snappy@7's copying variant frees its buffers only some turns later.
  for (let i = 0; i < 5; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Run `start`'s waves on `codec`, or skip it when it has no async API. */
export async function runWaves(
  codec: SnappyCodec,
  start: AsyncStart,
): Promise<AsyncResult | { skipped: string }> {
  const apis = [
    codec.compressAsync && "compressAsync",
    codec.uncompressAsync && "uncompressAsync",
  ].filter((a): a is string => typeof a === "string");
  if (apis.length === 0) return { skipped: "no async API" };
  const result: AsyncResult = {
    library: codec.library,
    apis,
    calls: 0,
    waves: 0,
    maxInFlight: 0,
    byKind: zeros(CALL_KINDS),
    resolvedOk: 0,
    rejectedOk: 0,
    wrongResults: 0,
    misattributedErrors: 0,
    nonSnappyErrors: 0,
    syncThrows: 0,
    problems: [],
    rssStartBytes: process.memoryUsage.rss(),
    rssPeakBytes: 0,
    rssEndBytes: 0,
    liveStartBytes: 0,
    liveEndBytes: 0,
    eventLoopDelayMs: { p50: 0, p99: 0, max: 0 },
    issueMs: 0,
    ms: 0,
  };
  const problem = (call: number, kind: CallKind, text: string) => {
    if (result.problems.length < 50) result.problems.push({ call, kind, problem: text });
  };
  // Load the fixtures the plans draw from first, so the baseline holds them too.
  planWave(codec, 1, start.seed, 0);
  await collect();
  const before = process.memoryUsage();
  result.liveStartBytes = before.heapUsed + before.external;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const sample = setInterval(() => {
    result.rssPeakBytes = Math.max(result.rssPeakBytes, process.memoryUsage.rss());
  }, 20);
  // One wave per call of a function of its own: a suspended async function keeps the values
  // of its finished blocks in its frame, so the last wave's inputs and results (~800 MiB) would
  // still be held when the memory after the waves is read.
  for (let first = 0; first < start.calls; first += start.wave) {
    await runWave(codec, start, first, result, delay, problem);
  }
  clearInterval(sample);
  await collect();
  const memory = process.memoryUsage();
  result.rssEndBytes = memory.rss;
  result.liveEndBytes = memory.heapUsed + memory.external;
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  result.eventLoopDelayMs = {
    p50: ms(delay.percentile(50)),
    p99: ms(delay.percentile(99)),
    max: ms(delay.max),
  };
  result.ms = Math.round(result.ms);
  return result;
}

/** One wave: every call issued, then every outcome awaited and checked into `result`. */
async function runWave(
  codec: SnappyCodec,
  start: AsyncStart,
  first: number,
  result: AsyncResult,
  delay: IntervalHistogram,
  problem: (call: number, kind: CallKind, text: string) => void,
): Promise<void> {
  const plan: PlannedCall[] = planWave(
    codec,
    Math.min(start.wave, start.calls - first),
    start.seed + first,
    first,
  );
  const waveStart = performance.now();
  delay.enable();
  // Every call of the wave is issued before any is awaited: all are in flight together.
  let inFlight = 0;
  const settled = plan.map((call, i) => {
    const index = first + i;
    result.byKind[call.kind]++;
    let promise: Promise<Uint8Array>;
    try {
      promise = call.run(codec);
    } catch (error) {
      result.syncThrows++;
      problem(index, call.kind, `threw synchronously: ${describeError(error)}`);
      promise = Promise.reject(error);
    }
    inFlight++;
    return promise.then(
      (bytes) => {
        inFlight--;
        return { index, call, bytes, error: undefined as unknown };
      },
      (error: unknown) => {
        inFlight--;
        return { index, call, bytes: undefined, error };
      },
    );
  });
  result.maxInFlight = Math.max(result.maxInFlight, inFlight);
  result.issueMs = Math.max(result.issueMs, Math.round(performance.now() - waveStart));
  const outcomes = await Promise.all(settled);
  // Checking the results is our own work, not the adapter's: keep it out of the delay.
  delay.disable();
  for (const { index, call, bytes, error } of outcomes) {
    result.calls++;
    if (bytes !== undefined) {
      if (
        call.expected !== null &&
        bytes instanceof Uint8Array &&
        firstDifference(bytes, call.expected) === -1
      )
        result.resolvedOk++;
      else {
        result.wrongResults++;
        problem(
          index,
          call.kind,
          call.expected === null
            ? `resolved with ${bytes.length} bytes; must reject`
            : `resolved with other bytes (${bytes.length}, expected ${call.expected.length})`,
        );
      }
    } else if (!isSnappyError(error)) {
      result.nonSnappyErrors++;
      problem(index, call.kind, `rejected with ${describeError(error)}`);
    } else if (call.expected !== null) {
      result.misattributedErrors++;
      problem(index, call.kind, `rejected (${describeError(error)}) but must resolve`);
    } else if (
      !call.codes?.includes(error.code) ||
      (call.mentions && !error.message.includes(call.mentions))
    ) {
      result.misattributedErrors++;
      problem(
        index,
        call.kind,
        `rejected with ${describeError(error)}; expected ${call.codes?.join("/")}${call.mentions ? ` naming "${call.mentions}"` : ""}`,
      );
    } else result.rejectedOk++;
  }
  result.ms += performance.now() - waveStart;
  result.waves++;
}

// What one decompress call did, judged against the reference. Pure functions only: the
// worker classifies in the child, the parent tallies, and both are unit-tested directly.
import { firstDifference } from "@snappykit/conformance/cases";
import { isSnappyError } from "@snappykit/core";

/**
 * Which object a row calls: the adapter's guarded codec, its raw backend, or a framed
 * (req/resp) implementation over it (framed.ts).
 */
export type Target = "adapter" | "raw" | "framed";

/**
 * The result of one call, in report column order. Exactly one per input:
 *
 * - `rejected`: threw a `SnappyError` where the reference rejects (what a safe codec does).
 * - `rejectedOther`: threw something else where the reference rejects (right call, but
 *   not the contract's error type; expected of raw libraries).
 * - `same`: returned exactly the reference's bytes.
 * - `falseReject`: threw where the reference decodes the input.
 * - `silentAccept`: returned bytes where the reference rejects the input.
 * - `wrongBytes`: returned bytes that differ from the reference's (or not a `Uint8Array`).
 * - `crash`: the child process died during the call (signal, abort, out of memory).
 * - `hang`: the call ran past the hang limit and the child was killed.
 */
export const OUTCOMES = [
  "rejected",
  "rejectedOther",
  "same",
  "falseReject",
  "silentAccept",
  "wrongBytes",
  "crash",
  "hang",
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A call slower than this is counted as slow (the issue's bound). */
export const SLOW_MS = 100;
/** A call still running after this long is killed and counted as a hang. */
export const HANG_MS = 2000;
/** Peak RSS growth over the child's RSS before the call that counts as too much memory. */
export const RSS_LIMIT_BYTES = 64 * 1024 * 1024;

/** What the reference says an input decodes to: `null` when it rejects the input. */
export type Expected = Uint8Array | null;

/** Classify a call that returned `output` (anything the backend returned). */
export function classifyReturn(output: unknown, expected: Expected): Outcome {
  if (expected === null) return "silentAccept";
  if (!(output instanceof Uint8Array)) return "wrongBytes";
  return firstDifference(output, expected) === -1 ? "same" : "wrongBytes";
}

/** Classify a call that threw `error`. */
export function classifyThrow(error: unknown, expected: Expected): Outcome {
  if (expected !== null) return "falseReject";
  return isSnappyError(error) ? "rejected" : "rejectedOther";
}

/** An error in one line for reports: its name, its code if it has one, its message (cut). */
export function describeError(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}${"code" in error && error.code !== undefined ? ` ${String(error.code)}` : ""}: ${error.message}`
      : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** One call's measurements, as the parent records them. */
export interface CallResult {
  outcome: Outcome;
  /** Wall time of the call inside the child, ms (the hang limit for a hang). */
  ms: number;
  /** Peak RSS during the call minus RSS just before it, bytes (0 when unknown). */
  rssGrowth: number;
  /** A short description: the error message, output length, exit signal. */
  detail?: string;
}

/** One input that produced a notable result, kept in the report so anyone can replay it. */
export interface Example {
  /** Index of the input in its set. */
  index: number;
  /** The input, hex. Inputs longer than 256 bytes are cut and marked with "…". */
  hex: string;
  ms: number;
  rssGrowth: number;
  detail?: string;
}

/** Tallies for one codec on one input set. */
export interface CellStats {
  /** Inputs run. */
  calls: number;
  counts: Record<Outcome, number>;
  /** Calls over {@link SLOW_MS} (hangs included). */
  slow: number;
  /** Calls whose peak RSS growth reached {@link RSS_LIMIT_BYTES}. */
  rssOver: number;
  /** Largest peak RSS growth seen, bytes. */
  maxRssGrowth: number;
  /** Slowest call, ms. */
  maxMs: number;
  /** Child restarts (after a hang, crash or memory left inflated). */
  restarts: number;
  /** Up to {@link MAX_EXAMPLES} inputs per notable outcome ("slow" and "rss" included). */
  examples: Partial<Record<Outcome | "slow" | "rss", Example[]>>;
}

/** Examples kept per outcome per cell. */
export const MAX_EXAMPLES = 3;

/** An empty tally. */
export function emptyStats(): CellStats {
  const counts = zeros(OUTCOMES);
  return {
    calls: 0,
    counts,
    slow: 0,
    rssOver: 0,
    maxRssGrowth: 0,
    maxMs: 0,
    restarts: 0,
    examples: {},
  };
}

/** A tally of 0 per key. */
export function zeros<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

/** Hex of `bytes`, cut after `max` bytes. */
export function toHex(bytes: Uint8Array, max = 256): string {
  const hex = Buffer.from(bytes.subarray(0, max)).toString("hex");
  return bytes.length > max ? `${hex}…` : hex;
}

/** Outcomes that are correct behaviour: no example kept, no bold in the matrix. */
export const CORRECT: ReadonlySet<Outcome> = new Set(["rejected", "same"]);

/** Add one call to `stats`, keeping an example when the call is notable. */
export function record(
  stats: CellStats,
  index: number,
  input: Uint8Array,
  result: CallResult,
): void {
  stats.calls++;
  stats.counts[result.outcome]++;
  stats.maxMs = Math.max(stats.maxMs, result.ms);
  stats.maxRssGrowth = Math.max(stats.maxRssGrowth, result.rssGrowth);
  const keys: (Outcome | "slow" | "rss")[] = [];
  if (!CORRECT.has(result.outcome)) keys.push(result.outcome);
  if (result.ms > SLOW_MS) {
    stats.slow++;
    keys.push("slow");
  }
  if (result.rssGrowth >= RSS_LIMIT_BYTES) {
    stats.rssOver++;
    keys.push("rss");
  }
  for (const key of keys) {
    const list = stats.examples[key] ?? [];
    stats.examples[key] = list;
    if (list.length >= MAX_EXAMPLES) continue;
    const example: Example = {
      index,
      hex: toHex(input),
      ms: Math.round(result.ms * 100) / 100,
      rssGrowth: result.rssGrowth,
    };
    if (result.detail !== undefined) example.detail = result.detail;
    list.push(example);
  }
}

/** Sum of several cells (a codec's total over its sets). */
export function mergeStats(cells: readonly CellStats[]): CellStats {
  const total = emptyStats();
  for (const cell of cells) {
    total.calls += cell.calls;
    for (const o of OUTCOMES) total.counts[o] += cell.counts[o];
    total.slow += cell.slow;
    total.rssOver += cell.rssOver;
    total.maxRssGrowth = Math.max(total.maxRssGrowth, cell.maxRssGrowth);
    total.maxMs = Math.max(total.maxMs, cell.maxMs);
    total.restarts += cell.restarts;
  }
  return total;
}

/**
 * Why a cell misses the adapter targets (empty when it meets them): 0 silent accepts,
 * 0 wrong bytes, 0 crashes, 0 hangs, 0 calls over 100 ms, peak RSS growth under 64 MB;
 * and, because the contract demands them, 0 false rejects and 0 non-`SnappyError` throws
 * (not asked of a raw library or a framed one, which have their own error types).
 */
export function missedTargets(stats: CellStats, target: Target = "adapter"): string[] {
  const missed: string[] = [];
  const { counts } = stats;
  if (counts.silentAccept) missed.push(`${counts.silentAccept} silent accept(s)`);
  if (counts.wrongBytes) missed.push(`${counts.wrongBytes} wrong-bytes result(s)`);
  if (counts.crash) missed.push(`${counts.crash} crash(es)`);
  if (counts.hang) missed.push(`${counts.hang} hang(s)`);
  if (stats.slow) missed.push(`${stats.slow} call(s) over ${SLOW_MS} ms`);
  if (stats.rssOver) missed.push(`${stats.rssOver} call(s) with peak RSS growth ≥ 64 MB`);
  if (counts.falseReject) missed.push(`${counts.falseReject} false reject(s)`);
  if (counts.rejectedOther && target === "adapter")
    missed.push(`${counts.rejectedOther} non-SnappyError throw(s)`);
  return missed;
}

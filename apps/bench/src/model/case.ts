// The case model: a case is (target, payload, op). What a target and a payload are, what an
// op feeds a target and how it calls it (inputs/ops.ts holds the ops), what the gate makes
// of the payloads, and how a fork is told which target to build and what to time.
import type { SnappyCodec } from "@snappykit/core";
import type { RuntimeName } from "./options.js";

/**
 * What a payload's bytes model: a gossip message, a req/resp response, synthetic data, or the
 * user's own files (`--data`). A `response` is a req/resp response too large for the
 * per-message ops: only the ops that name it (the framed ones) run on it by default.
 */
export type PayloadKind = "gossip" | "reqresp" | "response" | "synthetic" | "user";

/**
 * A named set of byte strings; one benchmark op processes every item of it. Structurally
 * the same as `@snappykit/fixtures`' payload, so tests can build their own.
 */
export interface BenchPayload {
  readonly name: string;
  readonly description: string;
  readonly kind: PayloadKind;
  readonly items: readonly Uint8Array[];
  /** Sum of the items' lengths. */
  readonly bytes: number;
}

/** Whether a case calls the adapter (`SnappyCodec`) or its library directly (`createRaw`). */
export type TargetImpl = "adapter" | "raw";

/** The calls a target offers: a `SnappyCodec` or a `RawBackend` both fit. */
export interface Backend {
  compress(input: Uint8Array): Uint8Array;
  uncompress(input: Uint8Array): Uint8Array;
  readonly compressAsync?: (input: Uint8Array) => Promise<Uint8Array>;
  readonly uncompressAsync?: (input: Uint8Array) => Promise<Uint8Array>;
  /** Writes into the caller's array and returns the length (`SnappyCodec`'s into-calls). */
  readonly compressInto?: (input: Uint8Array, output: Uint8Array) => number;
  readonly uncompressInto?: (input: Uint8Array, output: Uint8Array) => number;
  /** The output `compressInto` needs for `length` bytes (`SnappyCodec`'s; a raw library: none). */
  readonly maxCompressedLength?: (length: number) => number;
}

/** Something the bench can time: an adapter's codec, or the raw library behind it. */
export interface Target {
  /** The codec's report id (adapter folder name), e.g. "napi". */
  readonly codec: string;
  readonly impl: TargetImpl;
  readonly library: string;
  readonly backend: Backend;
  /** Time only the sync ops (adapter variants: their async rows would repeat the default's). */
  readonly syncOnly?: boolean;
  /**
   * A program without JavaScript (`cpp`, inputs/native.ts): the op ids it times itself. Its
   * `backend` serves the gate only; no JavaScript loop ever calls it.
   */
  readonly native?: readonly string[];
  /**
   * A codec the bench's Node cannot load, timed in forks of another runtime
   * (inputs/elsewhere.ts): the runtime, the op ids it has there, and the gate's calls,
   * answered by one process of that runtime. Its `backend` has no calls of its own.
   */
  readonly elsewhere?: Elsewhere;
}

/** Where and what a codec of another runtime times, and how the gate reaches it. */
export interface Elsewhere {
  readonly runtime: Exclude<RuntimeName, "browser">;
  readonly ops: readonly string[];
  readonly gate: {
    compress(input: Uint8Array): Promise<Uint8Array>;
    uncompress(input: Uint8Array): Promise<Uint8Array>;
  };
}

/**
 * A payload made ready for timing by the gate: its items plus the reference codec's
 * compressed form of each, which every `uncompress` case decodes (so only the decoder
 * differs between codecs).
 */
export interface PreparedPayload {
  readonly payload: BenchPayload;
  readonly referenceCompressed: readonly Uint8Array[];
  /** The reference codec, for ops that need other encodings of its output (framed). */
  readonly reference: SnappyCodec;
}

/**
 * A method to call once per item: `receiver[method](item)`. The runner generates a fresh
 * loop around this call for every case so each call site only ever sees one backend.
 */
export interface OpCall {
  readonly receiver: object;
  readonly method: string;
  /**
   * For an into-call: `receiver[method](item, output)`, into one array of this many bytes
   * made once per case outside the timed region (the largest item's output), and the
   * call's result (the length written) is what the loop keeps.
   */
  readonly into?: number;
  /**
   * One op on `item` that calls `sample()` wherever it hands control back (each piece a
   * stream delivers), so a probe sees its memory mid-way: the peak-memory figure
   * (measure/run.ts). Only the ops whose memory is a question (framed reads) have one.
   */
  readonly sampled?: (item: Uint8Array, sample: () => void) => Promise<unknown>;
}

/**
 * What a framed req/resp op's description says when it is a pattern over the fork's codec
 * (`snappykit`, `lodestar`) rather than a library with its own Snappy (render/reqresp.ts).
 */
export const OVER_CODEC = " over the fork's codec";

/** One benchmark op: what it feeds a target and how it calls it. */
export interface OpSpec {
  /** Stable id used in case keys, reports and `--op`. */
  readonly id: string;
  /** One line for `--help` and the report legend. */
  readonly description: string;
  /** True when the call returns a promise (thread-pool APIs). */
  readonly async: boolean;
  /**
   * The call for this target, or undefined when the target cannot do this op. `inputs` are
   * the op's inputs (what an into-call sizes its output array from).
   */
  call(target: Target, inputs?: readonly Uint8Array[]): OpCall | undefined;
  /** Inputs per item, built once outside the timed region. */
  inputs(prepared: PreparedPayload): readonly Uint8Array[];
  /** Bytes one op writes, to cap a timing batch's output (see measure/run.ts). */
  outputBytes(prepared: PreparedPayload): number;
  /**
   * Payloads the op runs on when `--op` does not name it; undefined = every payload but a
   * `response`.
   * (Framed ops only matter for req/resp, and would double the default run elsewhere.)
   */
  readonly defaultFor?: (payload: BenchPayload) => boolean;
}

/** Payloads ready for timing, what the gate checked, and every encoder's output size. */
export interface PreparedInputs {
  readonly reference: string;
  readonly prepared: PreparedPayload[];
  readonly sizes: SizeResult[];
  /** Checks made (item × direction × target), for the report. */
  readonly checks: number;
}

/** Compressed size of one payload by one codec's encoder. */
export interface SizeResult {
  readonly codec: string;
  readonly payload: string;
  readonly bytes: number;
  readonly compressedBytes: number;
  /** bytes / compressedBytes: above 1 means smaller. */
  readonly ratio: number;
}

/** One timed measurement: a target, a payload, an op. */
export interface BenchCase {
  readonly target: Target;
  readonly payload: BenchPayload;
  readonly op: OpSpec;
}

/** The stable key of a case, used to match cases across runs (`--compare`). */
export function caseKey(c: {
  codec: string;
  impl: TargetImpl;
  payload: string;
  op: string;
}): string {
  return `${c.codec}${c.impl === "raw" ? ":raw" : ""}/${c.payload}/${c.op}`;
}

/** One row's inputs as written for the children: a payload × op, and what the op reads. */
export interface RowInputs {
  readonly payload: string;
  readonly op: string;
  readonly outputBytes: number;
  readonly items: readonly Uint8Array[];
}

/** How a child builds its one target from the adapter module at `entry`. */
export interface TargetSpec {
  readonly codec: string;
  readonly impl: TargetImpl;
  /** Absolute path of the adapter package's entry module (its `./raw` entry for a raw target). */
  readonly entry: string;
  /** Set for an adapter variant: the codec comes from `createVariants()`. */
  readonly variant?: boolean;
  /** Set for a program without JavaScript: `entry` is the program a fork runs (measure/fork.ts). */
  readonly native?: boolean;
  /** Set for a codec of another runtime: its forks run there, not in the run's runtime. */
  readonly runtime?: Exclude<RuntimeName, "browser">;
  /**
   * Self-test of the statistics (`--slow-down`): each timed batch busy-waits this fraction of
   * its own time before its clock stops (measure/run.ts), so the target is that much slower.
   */
  readonly slowdown?: number;
}

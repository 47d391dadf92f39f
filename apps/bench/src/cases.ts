// The case model: a case is (target, payload, op). Ops live in a registry so framed
// req/resp ops (ssz_snappy encode/decode) plug in beside the block ones without touching
// the runner or the reports.
import type { RawBackend, SnappyCodec } from "@snappykit/core";
import { crc32cTs, decodeSszSnappy, encodeSszSnappy, MAX_PAYLOAD_SIZE } from "@snappykit/framing";
import type { BenchPayload } from "./payloads.js";

/** Whether a case calls the adapter (`SnappyCodec`) or its library directly (`createRaw`). */
export type TargetImpl = "adapter" | "raw";

/** The calls a target offers: a `SnappyCodec` or a `RawBackend` both fit. */
export interface Backend {
  compress(input: Uint8Array): Uint8Array;
  uncompress(input: Uint8Array): Uint8Array;
  readonly compressAsync?: (input: Uint8Array) => Promise<Uint8Array>;
  readonly uncompressAsync?: (input: Uint8Array) => Promise<Uint8Array>;
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
}

/** View a loaded codec as a timing target. */
export function adapterTarget(id: string, codec: SnappyCodec, syncOnly = false): Target {
  return { codec: id, impl: "adapter", library: codec.library, backend: codec, syncOnly };
}

/** View an adapter's raw backend as a timing target. */
export function rawTarget(id: string, raw: RawBackend): Target {
  return { codec: id, impl: "raw", library: raw.library, backend: raw };
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
}

/** One benchmark op: what it feeds a target and how it calls it. */
export interface OpSpec {
  /** Stable id used in case keys, reports and `--op`. */
  readonly id: string;
  /** One line for `--help` and the report legend. */
  readonly description: string;
  /** True when the call returns a promise (thread-pool APIs). */
  readonly async: boolean;
  /** The call for this target, or undefined when the target cannot do this op. */
  call(target: Target): OpCall | undefined;
  /** Inputs per item, built once outside the timed region. */
  inputs(prepared: PreparedPayload): readonly Uint8Array[];
  /** Bytes one op writes, to cap a timing batch's output (see run.ts). */
  outputBytes(prepared: PreparedPayload): number;
  /**
   * Payloads the op runs on when `--op` does not name it; undefined = every payload.
   * (Framed ops only matter for req/resp, and would double the default run elsewhere.)
   */
  readonly defaultFor?: (payload: BenchPayload) => boolean;
}

const sumCompressed = (p: PreparedPayload) =>
  p.referenceCompressed.reduce((n, c) => n + c.length, 0);

function methodOp(
  id: string,
  description: string,
  method: keyof Backend,
  async: boolean,
  inputs: (p: PreparedPayload) => readonly Uint8Array[],
  outputBytes: (p: PreparedPayload) => number,
): OpSpec {
  return {
    id,
    description,
    async,
    call: (target) =>
      typeof target.backend[method] === "function" && !(async && target.syncOnly)
        ? { receiver: target.backend, method }
        : undefined,
    inputs,
    outputBytes,
  };
}

/**
 * An `ssz_snappy` op (req/resp encoding: varint length + Snappy framing format) over an
 * adapter's codec. Raw libraries have no `SnappyCodec`, so these ops skip them.
 */
function framedOp(
  id: string,
  description: string,
  run: (codec: SnappyCodec) => (input: Uint8Array) => Uint8Array,
  inputs: (p: PreparedPayload) => readonly Uint8Array[],
  outputBytes: (p: PreparedPayload) => number,
  inDefaultRun = true,
): OpSpec {
  return {
    id,
    description,
    async: false,
    call: (target) =>
      target.impl === "adapter"
        ? { receiver: { run: run(target.backend as SnappyCodec) }, method: "run" }
        : undefined,
    inputs,
    outputBytes,
    defaultFor: (payload) => inDefaultRun && payload.kind === "reqresp",
  };
}

// ssz_snappy accepts any SSZ size up to the spec's MAX_PAYLOAD_SIZE here: the bench
// measures the encoding, not a type's bounds.
const ANY_SIZE = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE };
// The same with the pure-TypeScript CRC-32C forced, to measure what the native one buys.
const TS_CRC = { crc32c: crc32cTs };
const framedCache = new WeakMap<PreparedPayload, Uint8Array[]>();
const referenceFramed = (p: PreparedPayload) => {
  let framed = framedCache.get(p);
  if (!framed) {
    framed = p.payload.items.map((item) => encodeSszSnappy(p.reference, item));
    framedCache.set(p, framed);
  }
  return framed;
};

/** Whether `target` can run `op`. */
export function supports(op: OpSpec, target: Target): boolean {
  return op.call(target) !== undefined;
}

/**
 * Every op the bench knows, in report order. A new op (another framing, a streaming API)
 * is one more `OpSpec` here; the runner and the reports need no change.
 */
export const OPS: readonly OpSpec[] = [
  methodOp(
    "compress",
    "block-compress every item",
    "compress",
    false,
    (p) => p.payload.items,
    sumCompressed,
  ),
  methodOp(
    "uncompress",
    "block-decompress the reference codec's output for every item",
    "uncompress",
    false,
    (p) => p.referenceCompressed,
    (p) => p.payload.bytes,
  ),
  // Async ops await items one after another: the latency of a message through the
  // thread pool, comparable with the sync rows (not the throughput of a parallel burst).
  methodOp(
    "compress-async",
    "compressAsync (thread pool) every item, awaited one by one",
    "compressAsync",
    true,
    (p) => p.payload.items,
    sumCompressed,
  ),
  methodOp(
    "uncompress-async",
    "uncompressAsync (thread pool) the reference's output, awaited one by one",
    "uncompressAsync",
    true,
    (p) => p.referenceCompressed,
    (p) => p.payload.bytes,
  ),
  framedOp(
    "ssz_snappy-encode",
    "req/resp ssz_snappy encode (varint + framing format, CRC-32C) every item",
    (codec) => (ssz) => encodeSszSnappy(codec, ssz),
    (p) => p.payload.items,
    (p) => sumCompressed(p) + p.payload.items.length * 64,
  ),
  framedOp(
    "ssz_snappy-decode",
    "req/resp ssz_snappy decode (checksums verified) of the reference's encoding",
    (codec) => (framed) => decodeSszSnappy(codec, framed, ANY_SIZE),
    referenceFramed,
    (p) => p.payload.bytes,
  ),
  // Opt-in (`--op`): the framing CRC choice, not a codec property, so one codec suffices.
  framedOp(
    "ssz_snappy-encode-ts-crc",
    "ssz_snappy encode with the pure-TypeScript CRC-32C instead of the native one",
    (codec) => (ssz) => encodeSszSnappy(codec, ssz, TS_CRC),
    (p) => p.payload.items,
    (p) => sumCompressed(p) + p.payload.items.length * 64,
    false,
  ),
  framedOp(
    "ssz_snappy-decode-ts-crc",
    "ssz_snappy decode with the pure-TypeScript CRC-32C instead of the native one",
    (codec) => (framed) => decodeSszSnappy(codec, framed, { ...ANY_SIZE, ...TS_CRC }),
    referenceFramed,
    (p) => p.payload.bytes,
    false,
  ),
];

/** Look an op up by id. */
export function getOp(id: string): OpSpec {
  const op = OPS.find((o) => o.id === id);
  if (!op) throw new Error(`unknown op "${id}"; valid: ${OPS.map((o) => o.id).join(", ")}`);
  return op;
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

/** What to build cases for. */
export interface CasePlan {
  readonly targets: readonly Target[];
  /** Raw targets, timed only on `overheadPayloads` (adapter overhead). */
  readonly rawTargets: readonly Target[];
  readonly payloads: readonly BenchPayload[];
  readonly ops: readonly OpSpec[];
  /** Payload names on which raw targets are timed. */
  readonly overheadPayloads: readonly string[];
  /** True when the user chose the ops (`--op`): then each runs on every payload. */
  readonly explicitOps?: boolean;
}

/**
 * The case list in run order: payload by payload, op by op, every codec in turn, each
 * raw target right after its adapter so the overhead pair sees the same machine state.
 */
export function buildCases(plan: CasePlan): BenchCase[] {
  const cases: BenchCase[] = [];
  for (const payload of plan.payloads) {
    const withRaw = plan.overheadPayloads.includes(payload.name);
    for (const op of plan.ops) {
      if (!plan.explicitOps && op.defaultFor && !op.defaultFor(payload)) continue;
      for (const target of plan.targets) {
        if (!supports(op, target)) continue;
        cases.push({ target, payload, op });
        const raw = withRaw && plan.rawTargets.find((r) => r.codec === target.codec);
        if (raw && supports(op, raw)) cases.push({ target: raw, payload, op });
      }
    }
  }
  return cases;
}

/**
 * The payloads adapter overhead is measured on: the one with the smallest items and the
 * one with the largest (by mean item size), so fixed per-call costs and per-byte costs
 * both show.
 */
export function pickOverheadPayloads(payloads: readonly BenchPayload[]): string[] {
  if (payloads.length === 0) return [];
  const mean = (p: BenchPayload) => p.bytes / Math.max(1, p.items.length);
  const sorted = [...payloads].sort((a, b) => mean(a) - mean(b));
  const small = sorted[0]!.name;
  const large = sorted[sorted.length - 1]!.name;
  return small === large ? [small] : [small, large];
}

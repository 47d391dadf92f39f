// Every op the bench knows, in a registry, so framed req/resp ops (ssz_snappy encode/decode)
// plug in beside the block ones without touching the runner or the reports.
import { maxCompressedLength, readUncompressedLength, type SnappyCodec } from "@snappykit/core";
import { ByteReader, crc32cTs } from "@snappykit/framing";
import {
  decodeSszSnappy,
  encodeSszSnappy,
  GossipTransform,
  MAX_PAYLOAD_SIZE,
  readSszSnappy,
} from "@snappykit/p2p";
import {
  type Backend,
  type BenchPayload,
  type OpSpec,
  OVER_CODEC,
  type PreparedPayload,
  type Target,
} from "../model/case.js";
import { DEFAULT_REFERENCE } from "../model/options.js";
import { FRAMED, type FramedImpl, prefixLength } from "./framed.js";

const sumCompressed = (p: PreparedPayload) =>
  p.referenceCompressed.reduce((n, c) => n + c.length, 0);
const payloadBytes = (p: PreparedPayload) => p.payload.bytes;

/** What an op reads per item and how many bytes it writes: most ops share one of a few. */
type OpData = Pick<OpSpec, "inputs" | "outputBytes">;
/** A compressing op's: the payload's items, written at the reference codec's sizes. */
const COMPRESSING: OpData = { inputs: (p) => p.payload.items, outputBytes: sumCompressed };
/** A decompressing op's: the reference codec's output, written back as the payload. */
const UNCOMPRESSING: OpData = { inputs: (p) => p.referenceCompressed, outputBytes: payloadBytes };

function methodOp(
  id: string,
  description: string,
  method: keyof Backend,
  async: boolean,
  data: OpData,
): OpSpec {
  return {
    id,
    description,
    async,
    call: (target) =>
      typeof target.backend[method] === "function" && !(async && target.syncOnly)
        ? { receiver: target.backend, method }
        : undefined,
    ...data,
  };
}

const largest = (xs: readonly number[]) => xs.reduce((a, b) => Math.max(a, b), 0);

/**
 * An into-op: the target's `compressInto`/`uncompressInto` writing every item into one array
 * of the case's own, sized for its largest item (the shape a client with a reused buffer
 * calls, and the only shape native code without bindings has: `cpp`).
 */
function intoOp(
  id: string,
  description: string,
  method: "compressInto" | "uncompressInto",
  data: OpData,
): OpSpec {
  return {
    id,
    description,
    async: false,
    call: (target, items = []) => {
      const b = target.backend;
      if (typeof b[method] !== "function") return undefined;
      const into =
        method === "compressInto"
          ? (b.maxCompressedLength ?? maxCompressedLength)(largest(items.map((i) => i.length)))
          : largest(items.map((i) => readUncompressedLength(i).length));
      return { receiver: b, method, into };
    },
    ...data,
  };
}

const hasUncompressInto = (target: Target) =>
  target.impl === "adapter" && typeof target.backend.uncompressInto === "function";
const gossipOnly = (payload: BenchPayload) => payload.kind === "gossip";
// Node's pooled allocation where there is one (Lodestar's pattern), else a plain array.
const NodeBuffer = (
  globalThis as { Buffer?: { alloc(n: number): Uint8Array; allocUnsafe(n: number): Uint8Array } }
).Buffer;

/**
 * What an owned result costs by itself: an array of each item's decoded size, allocated and
 * dropped, and nothing else. Timed in the forks of the codecs with `uncompressInto`, beside
 * their `uncompress` and `uncompress-into` rows, so the gap between those two reads against
 * it. `allocate` undefined: the runtime has no such call (no `Buffer` in a page).
 */
function allocOp(
  id: string,
  description: string,
  allocate: ((n: number) => Uint8Array) | undefined,
): OpSpec {
  return {
    id,
    description,
    async: false,
    call: (target) => {
      if (!allocate || !hasUncompressInto(target)) return undefined;
      // Each array escapes into `held`, so the JIT cannot drop an allocation nobody reads.
      let held: Uint8Array | undefined;
      const run = (item: Uint8Array) => {
        held = allocate(item.length);
        return held;
      };
      return { receiver: { run }, method: "run" };
    },
    inputs: (p) => p.payload.items,
    outputBytes: payloadBytes,
    defaultFor: gossipOnly,
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
  data: OpData,
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
    ...data,
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
/** An `ssz_snappy` encoding op's: the payload's items, at the reference's sizes + ~64 B framing. */
const SSZ_ENCODING: OpData = {
  inputs: (p) => p.payload.items,
  outputBytes: (p) => sumCompressed(p) + p.payload.items.length * 64,
};
/** An `ssz_snappy` decoding op's: the reference's encoding, written back as the payload. */
const SSZ_DECODING: OpData = { inputs: referenceFramed, outputBytes: payloadBytes };

/** `bytes` as a stream hands it over: chunks of `size(i)` bytes, the i-th chunk's. */
function chunked(bytes: Uint8Array, size: (i: number) => number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = size(i);
    chunks.push(bytes.slice(at, at + n));
    at += n;
  }
  return chunks;
}

async function* streamOf(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

/**
 * A req/resp response read as a client reads it off a stream: each item's `ssz_snappy`
 * encoding arriving in chunks of `size(i)` bytes (cut once per case, outside the timed
 * region), read with p2p's `readSszSnappy` through a `ByteReader`, awaited item by item.
 * Opt-in (`--op`): on blocks-by-range each op is thousands of awaited chunks.
 */
function streamedOp(id: string, description: string, size: (i: number) => number): OpSpec {
  return {
    id,
    description,
    async: true,
    call: (target, framed = []) => {
      if (target.impl !== "adapter" || target.syncOnly) return undefined;
      const codec = target.backend as SnappyCodec;
      const chunks = new Map(framed.map((f) => [f, chunked(f, size)]));
      const run = (item: Uint8Array) =>
        readSszSnappy(codec, new ByteReader(streamOf(chunks.get(item)!)), ANY_SIZE);
      return { receiver: { run }, method: "run" };
    },
    ...SSZ_DECODING,
    defaultFor: () => false,
  };
}

/** The codecs a framed pattern over a codec runs on: the portable one, the router, the native one. */
export const REQRESP_CODECS: readonly string[] = ["ts", "auto", "napi"];
/** A libp2p stream's pieces: a Noise transport message carries at most 65,535 − 16 bytes. */
export const LIBP2P_PIECE = 65_519;

/**
 * Whether `target` runs `impl`: a pattern over a codec in its codecs' forks (Lodestar's only
 * where the codec has `uncompressInto`: napi has none), a library in napi's.
 */
const runsFramed = (impl: FramedImpl, target: Target) =>
  target.impl === "adapter" &&
  (impl.overCodec
    ? REQRESP_CODECS.includes(target.codec) &&
      (!impl.needsInto || typeof target.backend.uncompressInto === "function")
    : target.codec === DEFAULT_REFERENCE);

/** `pieces`, calling `sample()` before each is handed over. */
function* sampling(pieces: readonly Uint8Array[], sample: () => void): Generator<Uint8Array> {
  for (const piece of pieces) {
    sample();
    yield piece;
  }
}

/**
 * A framed implementation's op (inputs/framed.ts): `encode` every chunk of a response, or
 * `read` each from its encoding cut into pieces of `piece` bytes (cut once per case, outside
 * the timed region), awaited chunk by chunk.
 */
function framedImplOp(impl: FramedImpl, kind: "encode" | "read" | "read-1b"): OpSpec {
  const piece = kind === "read-1b" ? 1 : LIBP2P_PIECE;
  const what =
    kind === "encode"
      ? "encode every chunk of the response"
      : `read every chunk from ${kind === "read" ? "libp2p-sized (65,519-byte)" : "1-byte"} pieces`;
  return {
    id: `reqresp-${kind}:${impl.id}`,
    description: `${impl.library}${impl.overCodec ? OVER_CODEC : ""}: ${what}; CRC ${impl.crc}`,
    async: true,
    call: (target, inputs = []) => {
      if (!runsFramed(impl, target)) return undefined;
      const codec = target.backend as SnappyCodec;
      if (kind === "encode") return { receiver: { run: impl.encode(codec) }, method: "run" };
      const decode = impl.decode(codec);
      const split = new Map(
        inputs.map((f) => {
          const at = prefixLength(f);
          return [f, { prefix: f.subarray(0, at), pieces: chunked(f.subarray(at), () => piece) }];
        }),
      );
      const run = (item: Uint8Array) => {
        const { prefix, pieces } = split.get(item)!;
        return decode(prefix, pieces);
      };
      const sampled = (item: Uint8Array, sample: () => void) => {
        const { prefix, pieces } = split.get(item)!;
        return decode(prefix, sampling(pieces, sample));
      };
      return { receiver: { run }, method: "run", sampled };
    },
    ...(kind === "encode" ? SSZ_ENCODING : SSZ_DECODING),
    // Opt-in (`--op reqresp`): through Node streams a response takes up to seconds, which the
    // default run's budget has no room for.
    defaultFor: () => false,
  };
}

/** `--op reqresp`: every framed implementation's encode and libp2p-sized read. */
export const REQRESP_SELECTION = "reqresp";

/** The framed implementations' ops, implementation by implementation. */
export const FRAMED_OPS: readonly OpSpec[] = FRAMED.flatMap((impl) =>
  (["encode", "read", "read-1b"] as const).map((kind) => framedImplOp(impl, kind)),
);

/**
 * Every op the bench knows, in report order. A new op (another framing, a streaming API)
 * is one more `OpSpec` here; the runner and the reports need no change.
 */
export const OPS: readonly OpSpec[] = [
  methodOp("compress", "block-compress every item", "compress", false, COMPRESSING),
  methodOp(
    "uncompress",
    "block-decompress the reference codec's output for every item",
    "uncompress",
    false,
    UNCOMPRESSING,
  ),
  intoOp(
    "compress-into",
    "compressInto every item, into one array sized for the largest",
    "compressInto",
    COMPRESSING,
  ),
  intoOp(
    "uncompress-into",
    "uncompressInto the reference's output for every item, into one array sized for the largest",
    "uncompressInto",
    UNCOMPRESSING,
  ),
  allocOp(
    "alloc-uint8array",
    "new Uint8Array(n) for every item's decoded size n: what an owned result costs alone",
    (n) => new Uint8Array(n),
  ),
  allocOp(
    "alloc-buffer",
    "Buffer.allocUnsafe(n) (Node's pool for small n) for every item's decoded size n",
    NodeBuffer && ((n) => NodeBuffer.allocUnsafe(n)),
  ),
  // A consensus client's inbound gossip, as Lodestar 1.44 writes it by hand
  // (lib/network/gossip/encoding.js of @lodestar/beacon-node): the declared length checked
  // against the topic's bound before anything is allocated, `Buffer.alloc(len)` (zero-filled,
  // unpooled: "to mitigate high GC pressure") and the codec decoding into it; the packaged
  // transform's row follows, on the same inputs and payloads.
  {
    id: "gossip-inbound",
    description:
      "per message: uncompressedLength (checked against MAX_PAYLOAD_SIZE), Buffer.alloc, uncompressInto (Lodestar 1.44)",
    async: false,
    call: (target) => {
      const codec = target.backend as SnappyCodec;
      if (!NodeBuffer || !hasUncompressInto(target)) return undefined;
      const allocate = NodeBuffer.alloc.bind(NodeBuffer);
      const bound = { maxLength: MAX_PAYLOAD_SIZE };
      const run = (message: Uint8Array) => {
        const out = allocate(codec.uncompressedLength(message, bound));
        codec.uncompressInto!(message, out, bound);
        return out;
      };
      return { receiver: { run }, method: "run" };
    },
    ...UNCOMPRESSING,
    defaultFor: gossipOnly,
  },
  {
    id: "gossip-transform",
    description:
      "per message: @snappykit/p2p's GossipTransform.inboundTransform (bounds checked before it allocates)",
    async: false,
    call: (target) => {
      if (!hasUncompressInto(target)) return undefined;
      const transform = new GossipTransform({
        codec: target.backend as SnappyCodec,
        bounds: () => ({ minSize: 0, maxSize: MAX_PAYLOAD_SIZE }),
      });
      const run = (message: Uint8Array) => transform.inboundTransform("bench", message);
      return { receiver: { run }, method: "run" };
    },
    ...UNCOMPRESSING,
    defaultFor: gossipOnly,
  },
  // Async ops await items one after another: the latency of a message through the
  // thread pool, comparable with the sync rows (not the throughput of a parallel burst).
  methodOp(
    "compress-async",
    "compressAsync (thread pool) every item, awaited one by one",
    "compressAsync",
    true,
    COMPRESSING,
  ),
  methodOp(
    "uncompress-async",
    "uncompressAsync (thread pool) the reference's output, awaited one by one",
    "uncompressAsync",
    true,
    UNCOMPRESSING,
  ),
  framedOp(
    "ssz_snappy-encode",
    "req/resp ssz_snappy encode (varint + framing format, CRC-32C) every item",
    (codec) => (ssz) => encodeSszSnappy(codec, ssz),
    SSZ_ENCODING,
  ),
  framedOp(
    "ssz_snappy-decode",
    "req/resp ssz_snappy decode (checksums verified) of the reference's encoding",
    (codec) => (framed) => decodeSszSnappy(codec, framed, ANY_SIZE),
    SSZ_DECODING,
  ),
  // The 1–7-byte chunks of a slow peer's stream, and the 64 KiB of a fast one's.
  streamedOp(
    "ssz_snappy-read-7b",
    "req/resp ssz_snappy read from a stream of 1-7-byte chunks (readSszSnappy, ByteReader)",
    (i) => 1 + (i % 7),
  ),
  streamedOp(
    "ssz_snappy-read-64k",
    "req/resp ssz_snappy read from a stream of 64 KiB chunks (readSszSnappy, ByteReader)",
    () => 64 << 10,
  ),
  // Opt-in (`--op`): the framing CRC choice, not a codec property, so one codec suffices.
  framedOp(
    "ssz_snappy-encode-ts-crc",
    "ssz_snappy encode with the pure-TypeScript CRC-32C instead of the native one",
    (codec) => (ssz) => encodeSszSnappy(codec, ssz, TS_CRC),
    SSZ_ENCODING,
    false,
  ),
  framedOp(
    "ssz_snappy-decode-ts-crc",
    "ssz_snappy decode with the pure-TypeScript CRC-32C instead of the native one",
    (codec) => (framed) => decodeSszSnappy(codec, framed, { ...ANY_SIZE, ...TS_CRC }),
    SSZ_DECODING,
    false,
  ),
  ...FRAMED_OPS,
];

/** Look an op up by id. */
export function getOp(id: string): OpSpec {
  const op = OPS.find((o) => o.id === id);
  if (!op) throw new Error(`unknown op "${id}"; valid: ${OPS.map((o) => o.id).join(", ")}`);
  return op;
}

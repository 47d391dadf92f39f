// Gossipsub's data transform and message id for the consensus spec's gossip domain
// (consensus-specs, phase0/p2p-interface.md "Encodings", altair/p2p-interface.md "Topics and
// messages"): each message is the SSZ bytes compressed with Snappy's raw (block) format.
import { sha256 } from "@noble/hashes/sha2.js";
import {
  bytesOf,
  checkOptions,
  checkUncompressedLength,
  MAX_SNAPPY_LENGTH,
  readUncompressedLength,
  type SnappyCodec,
  SnappyError,
  type SnappyErrorReason,
  toSnappyError,
  withContext,
} from "@snappykit/core";
import xxhash from "xxhash-wasm";
import { callbackFault, codecFault } from "./faults.js";
import { MAX_PAYLOAD_SIZE } from "./ssz-snappy.js";

/** A message type's size bounds: any object with these two numbers (an SSZ type is one). */
export interface SizeBounds {
  /** Smallest valid SSZ serialization, in bytes. */
  readonly minSize: number;
  /** Largest valid SSZ serialization, in bytes. */
  readonly maxSize: number;
}

/** What a {@link GossipTransform} reports, per topic; every member is optional. */
export interface GossipMetrics {
  /** A message decoded: its bytes on the wire and its SSZ bytes. */
  onInbound?(topic: string, wireBytes: number, sszBytes: number): void;
  /** A message encoded for publishing: its SSZ bytes and its bytes on the wire. */
  onOutbound?(topic: string, sszBytes: number, wireBytes: number): void;
  /** A message refused (inbound or outbound), with the error's reason. */
  onReject?(topic: string, reason: SnappyErrorReason, error: SnappyError): void;
}

/** Options of {@link GossipTransform}. */
export interface GossipTransformOptions {
  /** The codec that compresses and decompresses: any snappykit codec. */
  codec: SnappyCodec;
  /** The bounds of the topic's message type; called once per message. */
  bounds(topic: string): SizeBounds | undefined;
  /**
   * Cap on every topic's `maxSize`: the fork's `MAX_PAYLOAD_SIZE`.
   * @default MAX_PAYLOAD_SIZE (10 MiB)
   */
  maxPayloadSize?: number;
  metrics?: GossipMetrics;
}

const OPTIONS = ["codec", "bounds", "maxPayloadSize", "metrics"];

const isSize = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * `@libp2p/gossipsub`'s `DataTransform` for `ssz_snappy` topics: pass it as the
 * `dataTransform` option. Inbound, the declared length is checked against the topic's bounds
 * (capped by `maxPayloadSize`) and against what the compressed body can expand to, before
 * anything is allocated; then the message is decoded into an array of its own.
 *
 * Every inbound result owns its `ArrayBuffer` (`byteOffset` 0, nothing else in it), so a
 * client can transfer `result.buffer` to another thread without touching other messages.
 *
 * Faults are attributed: the peer's bytes give the codec's reasons (and `length-over-limit`,
 * `length-under-minimum`); a `bounds` or `metrics` callback that throws is `bad-options`, a
 * codec that throws anything but a `SnappyError` is `backend-failed`, what was thrown the
 * `cause` of either.
 */
export class GossipTransform {
  readonly codec: SnappyCodec;
  readonly #bounds: (topic: string) => SizeBounds | undefined;
  readonly #cap: number;
  readonly #metrics: GossipMetrics | undefined;

  constructor(options: GossipTransformOptions) {
    const own = checkOptions(options, OPTIONS);
    if (typeof own.codec?.uncompress !== "function" || typeof own.codec.compress !== "function") {
      throw new SnappyError("bad-options", "options.codec must be a SnappyCodec");
    }
    if (typeof own.bounds !== "function") {
      throw new SnappyError("bad-options", "options.bounds must be a function of the topic");
    }
    const cap = own.maxPayloadSize ?? MAX_PAYLOAD_SIZE;
    if (!isSize(cap)) {
      throw new SnappyError("bad-options", "options.maxPayloadSize must be a non-negative integer");
    }
    this.codec = own.codec;
    this.#bounds = own.bounds;
    this.#cap = cap;
    this.#metrics = own.metrics;
  }

  /** The topic's `[minSize, min(maxSize, maxPayloadSize)]`, checked. */
  #limits(topic: string): SizeBounds {
    let bounds: SizeBounds | undefined;
    try {
      bounds = this.#bounds(topic);
    } catch (error) {
      throw callbackFault(error, `bounds(${JSON.stringify(topic)})`);
    }
    if (bounds == null || !isSize(bounds.minSize) || !isSize(bounds.maxSize)) {
      throw new SnappyError(
        "bad-options",
        `bounds(${JSON.stringify(topic)}) gave no non-negative integer minSize and maxSize`,
      );
    }
    const maxSize = Math.min(bounds.maxSize, this.#cap);
    return maxSize === bounds.maxSize ? bounds : { minSize: bounds.minSize, maxSize };
  }

  /**
   * Decode a received message's `data`.
   * @throws SnappyError `LENGTH_LIMIT` (`length-over-limit`: declared over the topic's
   *   bound, with `declared` and `limit`), `CORRUPT_INPUT` (`length-under-minimum`,
   *   `length-over-expansion`, or what the codec found), `INVALID_ARGUMENT` for data that is
   *   not bytes, a topic without bounds or a callback that threw, `BACKEND_ERROR` for a codec
   *   that broke.
   */
  inboundTransform(topic: string, data: Uint8Array): Uint8Array {
    try {
      const input = bytesOf(data, "data");
      const { minSize, maxSize } = this.#limits(topic);
      const { length: declared, headerSize } = readUncompressedLength(input);
      if (declared > maxSize) {
        throw new SnappyError(
          "length-over-limit",
          `declares ${declared} bytes, over the topic's maximum of ${maxSize}`,
          { declared, limit: maxSize },
        );
      }
      if (declared < minSize) {
        throw new SnappyError(
          "length-under-minimum",
          `declares ${declared} bytes, under the topic's minimum of ${minSize}`,
          { declared, limit: minSize },
        );
      }
      // A body can expand 64/3-fold at most: a longer declared length is refused here, before
      // the output is allocated (core's guard throws length-over-expansion).
      if (declared * 3 > (input.length - headerSize) * 64) {
        checkUncompressedLength(input, { maxLength: maxSize });
      }
      const ssz = this.#decode(input, declared);
      const metrics = this.#metrics;
      if (metrics?.onInbound !== undefined) {
        try {
          metrics.onInbound(topic, input.length, declared);
        } catch (error) {
          throw callbackFault(error, "metrics.onInbound");
        }
      }
      return ssz;
    } catch (error) {
      throw this.#reject(topic, error, "gossip message");
    }
  }

  #decode(input: Uint8Array, declared: number): Uint8Array {
    const codec = this.codec;
    try {
      if (codec.uncompressInto === undefined) {
        return codec.uncompress(input, { maxLength: declared });
      }
      const ssz = new Uint8Array(declared);
      codec.uncompressInto(input, ssz);
      return ssz;
    } catch (error) {
      throw codecFault(error, codec, "uncompress");
    }
  }

  /**
   * Compress a message to publish.
   * @throws SnappyError `LENGTH_LIMIT` over the topic's `maxSize`, `CORRUPT_INPUT`
   *   (`length-under-minimum`) under its `minSize`: peers would refuse it.
   */
  outboundTransform(topic: string, data: Uint8Array): Uint8Array {
    try {
      const ssz = bytesOf(data, "data");
      const { minSize, maxSize } = this.#limits(topic);
      if (ssz.length > maxSize) {
        throw new SnappyError(
          "length-over-limit",
          `${ssz.length} bytes, over the topic's maximum of ${maxSize}`,
          { declared: ssz.length, limit: maxSize },
        );
      }
      if (ssz.length < minSize) {
        throw new SnappyError(
          "length-under-minimum",
          `${ssz.length} bytes, under the topic's minimum of ${minSize}`,
          { declared: ssz.length, limit: minSize },
        );
      }
      let wire: Uint8Array;
      try {
        wire = this.codec.compress(ssz);
      } catch (error) {
        throw codecFault(error, this.codec, "compress");
      }
      const metrics = this.#metrics;
      if (metrics?.onOutbound !== undefined) {
        try {
          metrics.onOutbound(topic, ssz.length, wire.length);
        } catch (error) {
          throw callbackFault(error, "metrics.onOutbound");
        }
      }
      return wire;
    } catch (error) {
      throw this.#reject(topic, error, "outbound gossip message");
    }
  }

  #reject(topic: string, error: unknown, what: string): SnappyError {
    // Every fault is classified where it happens; anything else is this package's own bug.
    const snappy = withContext(toSnappyError(error, what, "BACKEND_ERROR"), `${what} on ${topic}`);
    const metrics = this.#metrics;
    if (metrics?.onReject !== undefined) {
      try {
        metrics.onReject(topic, snappy.reason, snappy);
      } catch (thrown) {
        throw callbackFault(thrown, "metrics.onReject");
      }
    }
    return snappy;
  }
}

/** The spec's `MESSAGE_DOMAIN_VALID_SNAPPY`. */
export const MESSAGE_DOMAIN_VALID_SNAPPY: Uint8Array = Uint8Array.of(1, 0, 0, 0);
/** The spec's `MESSAGE_DOMAIN_INVALID_SNAPPY`. */
export const MESSAGE_DOMAIN_INVALID_SNAPPY: Uint8Array = Uint8Array.of(0, 0, 0, 0);

const utf8 = new TextEncoder();

function messageId(domain: Uint8Array, topic: string, data: Uint8Array): Uint8Array {
  const topicBytes = utf8.encode(topic);
  const length = new Uint8Array(8);
  new DataView(length.buffer).setBigUint64(0, BigInt(topicBytes.length), true);
  const digest = sha256
    .create()
    .update(domain)
    .update(length)
    .update(topicBytes)
    .update(bytesOf(data, "data"))
    .digest();
  return digest.slice(0, 20);
}

/**
 * The gossip `message-id` (Altair and later) of a message whose data decompressed to `ssz`:
 * `SHA256(MESSAGE_DOMAIN_VALID_SNAPPY + uint64_le(len(topic)) + topic + ssz)[:20]`. Gossipsub
 * calls `msgIdFn` with the transformed (decompressed) data, so
 * `msgIdFn: (msg) => gossipMessageId(msg.topic, msg.data)` is the spec's function there.
 */
export function gossipMessageId(topic: string, ssz: Uint8Array): Uint8Array {
  return messageId(MESSAGE_DOMAIN_VALID_SNAPPY, topic, ssz);
}

/**
 * The `message-id` of raw message data, as the spec defines it: of the decompressed data
 * under `MESSAGE_DOMAIN_VALID_SNAPPY` when `data` is valid Snappy (of any length: the codec
 * refuses a declared length the body cannot fill before allocating it), else of the raw data
 * under `MESSAGE_DOMAIN_INVALID_SNAPPY`. A codec that breaks (`backend-failed`) or data that
 * is not bytes throws: neither says anything about the message.
 */
export function computeMessageId(codec: SnappyCodec, topic: string, data: Uint8Array): Uint8Array {
  let ssz: Uint8Array;
  try {
    ssz = codec.uncompress(data, { maxLength: MAX_SNAPPY_LENGTH });
  } catch (error) {
    const fault = codecFault(error, codec, "uncompress");
    if (fault.code !== "CORRUPT_INPUT" && fault.code !== "LENGTH_LIMIT") throw fault;
    return messageId(MESSAGE_DOMAIN_INVALID_SNAPPY, topic, data);
  }
  return messageId(MESSAGE_DOMAIN_VALID_SNAPPY, topic, ssz);
}

/** A message as gossipsub's `fastMsgIdFn` sees it: the raw (compressed) data and its topic. */
export interface RawGossipMessage {
  readonly topic?: string;
  readonly data?: Uint8Array;
}

/**
 * Gossipsub's `fastMsgIdFn` as Lodestar computes it (`lib/network/gossip/encoding.js` in
 * `@lodestar/beacon-node` 1.44.0): xxhash64 of the compressed data, seeded per topic (a hash of
 * the topic under a random seed, so a message published on two topics is two messages, and
 * collisions cannot be mined), in hex. It only deduplicates before decoding: the spec's
 * `message-id` stays {@link gossipMessageId}. Asynchronous once, to load xxhash's WebAssembly.
 */
export async function createFastMsgIdFn(
  seed: bigint = BigInt(Math.floor(Math.random() * 1e9)),
): Promise<(msg: RawGossipMessage) => string> {
  const { h64Raw } = await xxhash();
  const topicSeeds = new Map<string, bigint>();
  return (msg) => {
    if (msg.data == null) return "0000000000000000";
    if (!msg.topic) return h64Raw(msg.data, seed).toString(16);
    let topicSeed = topicSeeds.get(msg.topic);
    if (topicSeed === undefined) {
      topicSeed = h64Raw(utf8.encode(msg.topic), seed);
      topicSeeds.set(msg.topic, topicSeed);
    }
    return h64Raw(msg.data, topicSeed).toString(16);
  };
}

/** Gossipsub's `msgIdToStrFn`: a message id as `0x`-prefixed hex, as Lodestar's. */
export function msgIdToStrFn(msgId: Uint8Array): string {
  let hex = "0x";
  for (const byte of msgId) hex += HEX[byte];
  return hex;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

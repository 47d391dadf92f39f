// Gossipsub's data transform and message id for the consensus spec's gossip domain
// (consensus-specs, phase0/p2p-interface.md "Encodings", altair/p2p-interface.md "Topics and
// messages"): each message is the SSZ bytes compressed with Snappy's raw (block) format.
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import {
  bytesOf,
  checkOptions,
  readUncompressedLength,
  type SnappyCodec,
  SnappyError,
  type SnappyErrorReason,
  toSnappyError,
  withContext,
} from "@snappykit/core";
import { MAX_PAYLOAD_SIZE } from "@snappykit/framing";
import { defaultCodec } from "./codec.js";

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

/** Options of {@link GossipTransform} and {@link createGossipTransform}. */
export interface GossipTransformOptions {
  /** @default one `@snappykit/auto` codec ({@link createGossipTransform} only) */
  codec?: SnappyCodec;
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
// Results below this size are cut from a shared slab, as Node's Buffer.allocUnsafe pools
// them (its pool is 8 KiB, pooling below half of it); larger ones get memory of their own.
const SLAB_SIZE = 8 * 1024;
const POOLED_BELOW = SLAB_SIZE >>> 1;

const isSize = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * `@chainsafe/libp2p-gossipsub`'s `DataTransform` for `ssz_snappy` topics: pass it as the
 * `dataTransform` option. Inbound, the declared length is checked against the topic's bounds
 * (capped by `maxPayloadSize`) before anything is allocated, then the message is decoded into
 * memory of its own: gossipsub keeps what the transform returns.
 *
 * **Memory of inbound results:** a result under 4 KiB is a view into a shared 8 KiB slab
 * (as Node's `Buffer.allocUnsafe` gives Lodestar): its `byteOffset` may be non-zero, its
 * `buffer` holds other messages' bytes, and transferring that buffer to a worker detaches them
 * all; copy (`.slice()`) before transferring. Larger results own their buffer. With a codec
 * that has no `uncompressInto`, every result is the codec's own (owned) array.
 */
export class GossipTransform {
  readonly codec: SnappyCodec;
  readonly #bounds: (topic: string) => SizeBounds | undefined;
  readonly #cap: number;
  readonly #metrics: GossipMetrics | undefined;
  #slab = new Uint8Array(0);
  #used = 0;

  constructor(options: GossipTransformOptions & { codec: SnappyCodec }) {
    const own = checkOptions(options, OPTIONS);
    if (typeof own.codec?.uncompress !== "function") {
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
      // The application's own callback failed: not the peer's fault, nor the codec's.
      throw new SnappyError("bad-options", `bounds(${JSON.stringify(topic)}) threw`, {
        cause: error,
      });
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

  #allocate(length: number): Uint8Array {
    if (length >= POOLED_BELOW) {
      return new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
    }
    // A slab transferred away by a caller reads as empty, so it is replaced here too.
    if (this.#used + length > this.#slab.length) {
      this.#slab = new Uint8Array(Buffer.allocUnsafeSlow(SLAB_SIZE).buffer, 0, SLAB_SIZE);
      this.#used = 0;
    }
    const out = this.#slab.subarray(this.#used, this.#used + length);
    this.#used += (length + 7) & ~7; // aligned as Node aligns its pool
    return out;
  }

  /**
   * Decode a received message's `data`.
   * @throws SnappyError `LENGTH_LIMIT` (`length-over-limit`: declared over the topic's
   *   bound, with `declared` and `limit`), `CORRUPT_INPUT` (`length-under-minimum`, or what
   *   the codec found), `INVALID_ARGUMENT` for data that is not bytes or a topic without bounds.
   */
  inboundTransform(topic: string, data: Uint8Array): Uint8Array {
    try {
      const input = bytesOf(data, "data");
      const { minSize, maxSize } = this.#limits(topic);
      const declared = readUncompressedLength(input).length;
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
      const into = this.codec.uncompressInto;
      let ssz: Uint8Array;
      if (into === undefined) {
        ssz = this.codec.uncompress(input, { maxLength: declared });
      } else {
        ssz = this.#allocate(declared);
        into(input, ssz);
      }
      this.#metrics?.onInbound?.(topic, input.length, declared);
      return ssz;
    } catch (error) {
      throw this.#reject(topic, error, "gossip message");
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
      const wire = this.codec.compress(ssz);
      this.#metrics?.onOutbound?.(topic, ssz.length, wire.length);
      return wire;
    } catch (error) {
      throw this.#reject(topic, error, "outbound gossip message");
    }
  }

  #reject(topic: string, error: unknown, what: string): SnappyError {
    const snappy = withContext(toSnappyError(error, what), `${what} on ${topic}`);
    this.#metrics?.onReject?.(topic, snappy.reason, snappy);
    return snappy;
  }
}

/** A {@link GossipTransform}, with one `@snappykit/auto` codec unless `codec` is given. */
export async function createGossipTransform(
  options: GossipTransformOptions,
): Promise<GossipTransform> {
  const codec = checkOptions(options, OPTIONS).codec ?? (await defaultCodec());
  return new GossipTransform({ ...options, codec });
}

/** The spec's `MESSAGE_DOMAIN_VALID_SNAPPY`. */
export const MESSAGE_DOMAIN_VALID_SNAPPY: Uint8Array = Uint8Array.of(1, 0, 0, 0);
/** The spec's `MESSAGE_DOMAIN_INVALID_SNAPPY`. */
export const MESSAGE_DOMAIN_INVALID_SNAPPY: Uint8Array = Uint8Array.of(0, 0, 0, 0);

function messageId(domain: Uint8Array, topic: string, data: Uint8Array): Uint8Array {
  const topicBytes = Buffer.from(topic, "utf8");
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(topicBytes.length));
  const digest = createHash("sha256")
    .update(domain)
    .update(length)
    .update(topicBytes)
    .update(bytesOf(data, "data"))
    .digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, 20).slice();
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
 * under `MESSAGE_DOMAIN_VALID_SNAPPY` when `data` decompresses (within `maxLength`), else of
 * the raw data under `MESSAGE_DOMAIN_INVALID_SNAPPY`.
 */
export function computeMessageId(
  codec: SnappyCodec,
  topic: string,
  data: Uint8Array,
  maxLength: number = MAX_PAYLOAD_SIZE,
): Uint8Array {
  let ssz: Uint8Array;
  try {
    ssz = codec.uncompress(data, { maxLength });
  } catch (error) {
    if (!(error instanceof SnappyError) || error.code === "INVALID_ARGUMENT") throw error;
    return messageId(MESSAGE_DOMAIN_INVALID_SNAPPY, topic, data);
  }
  return messageId(MESSAGE_DOMAIN_VALID_SNAPPY, topic, ssz);
}

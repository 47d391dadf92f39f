import { bytesOf, concatBytes, type SnappyCodec, SnappyError } from "@snappykit/core";
import { type Crc32cFunction, crc32c as defaultCrc32c, maskChecksum } from "./crc32c.js";
import {
  CHECKSUM_SIZE,
  CHUNK_HEADER_SIZE,
  ChunkType,
  MAX_CHUNK_DATA,
  STREAM_IDENTIFIER,
  writeChunkHeader,
  writeU32LE,
} from "./format.js";
import { ownOptions } from "./options.js";
import { type ByteChunk, partsOf } from "./parts.js";

/** Options for {@link encodeFramed} and the streaming encoders. */
export interface EncodeFramedOptions {
  /**
   * Uncompressed bytes per chunk, 1–65536 (the format's maximum, framing_format.txt §4.2).
   * @default 65536
   */
  chunkSize?: number;
  /**
   * CRC-32C implementation (e.g. `crc32cTs` to force the pure-TypeScript path).
   * @default crc32c (native @node-rs/crc32 when it loads, else TypeScript)
   */
  crc32c?: Crc32cFunction;
}

/** @internal Resolved encoder settings. */
export interface EncoderSettings {
  readonly chunkSize: number;
  readonly crc32c: Crc32cFunction;
}

const ENCODE_OPTIONS = ["chunkSize", "crc32c"];

/** @internal */
export function resolveEncodeOptions(
  options?: EncodeFramedOptions,
  known: readonly string[] = ENCODE_OPTIONS,
): EncoderSettings {
  const own = ownOptions(options, known);
  const chunkSize = own.chunkSize ?? MAX_CHUNK_DATA;
  if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK_DATA) {
    throw new SnappyError(
      "bad-options",
      `chunkSize must be an integer in 1..${MAX_CHUNK_DATA}, got ${chunkSize}`,
    );
  }
  const crc32c = own.crc32c ?? defaultCrc32c;
  if (typeof crc32c !== "function") {
    throw new SnappyError("bad-options", "crc32c must be a function");
  }
  return { chunkSize, crc32c };
}

/**
 * Encode one chunk (header, masked CRC, payload) of at most 65,536 bytes. Falls back to an
 * uncompressed chunk unless compression saves at least 1/8 of the data — the rule of Rust's
 * `snap` and Go's `snappy` writers, so that with a byte-identical codec our streams are
 * byte-identical to theirs, and decoders skip a decompression that barely pays.
 * @internal
 */
export function encodeChunk(
  codec: SnappyCodec,
  data: Uint8Array,
  crc32c: Crc32cFunction,
): Uint8Array {
  const checksum = maskChecksum(crc32c(data));
  const compressed = codec.compress(data);
  const useCompressed = compressed.length < data.length - (data.length >>> 3);
  const payload = useCompressed ? compressed : data;
  const out = new Uint8Array(CHUNK_HEADER_SIZE + CHECKSUM_SIZE + payload.length);
  writeChunkHeader(
    out,
    0,
    useCompressed ? ChunkType.compressed : ChunkType.uncompressed,
    CHECKSUM_SIZE + payload.length,
  );
  writeU32LE(out, CHUNK_HEADER_SIZE, checksum);
  out.set(payload, CHUNK_HEADER_SIZE + CHECKSUM_SIZE);
  return out;
}

/**
 * Encode `data` as a complete Snappy framed stream: the stream identifier followed by one data
 * chunk per `chunkSize` bytes (an empty input gives the identifier alone).
 *
 * @example
 * const framed = encodeFramed(await createCodec(), bytes);
 */
export function encodeFramed(
  codec: SnappyCodec,
  data: Uint8Array,
  options?: EncodeFramedOptions,
): Uint8Array {
  return encodeFramedAfter(codec, bytesOf(data, "data"), resolveEncodeOptions(options), EMPTY);
}

const EMPTY = new Uint8Array(0);

/** `prefix` followed by the framed stream of `data`, in one allocation. @internal */
export function encodeFramedAfter(
  codec: SnappyCodec,
  data: Uint8Array,
  { chunkSize, crc32c }: EncoderSettings,
  prefix: Uint8Array,
): Uint8Array {
  const parts = [prefix, STREAM_IDENTIFIER];
  for (let pos = 0; pos < data.length; pos += chunkSize) {
    parts.push(encodeChunk(codec, data.subarray(pos, pos + chunkSize), crc32c));
  }
  return concatBytes(parts);
}

/**
 * Incremental framed encoder: feed bytes with {@link FrameEncoder.write}, finish with
 * {@link FrameEncoder.end}. Holds at most one partial chunk (`chunkSize` bytes) between calls, so
 * memory stays bounded whatever the total input. The output pieces, concatenated, are one
 * framed stream; the first piece is the stream identifier.
 */
export class FrameEncoder {
  readonly #codec: SnappyCodec;
  readonly #settings: EncoderSettings;
  readonly #pending: Uint8Array;
  #fill = 0;
  #started = false;
  #ended = false;

  constructor(codec: SnappyCodec, options?: EncodeFramedOptions) {
    this.#codec = codec;
    this.#settings = resolveEncodeOptions(options);
    this.#pending = new Uint8Array(this.#settings.chunkSize);
  }

  /**
   * Encode what `data` completes (a `Uint8Array`, or a list of parts such as a
   * `Uint8ArrayList`, read part by part in place); yields framed pieces (possibly none).
   */
  *write(data: ByteChunk): Generator<Uint8Array, void, undefined> {
    if (this.#ended) throw new SnappyError("bad-argument", "write after end");
    for (const part of partsOf(data, "data")) {
      if (!this.#started) {
        this.#started = true;
        yield STREAM_IDENTIFIER.slice();
      }
      yield* this.#write(part);
    }
  }

  *#write(data: Uint8Array): Generator<Uint8Array, void, undefined> {
    const { chunkSize, crc32c } = this.#settings;
    let pos = 0;
    if (this.#fill > 0) {
      const take = Math.min(chunkSize - this.#fill, data.length);
      this.#pending.set(data.subarray(0, take), this.#fill);
      this.#fill += take;
      pos = take;
      if (this.#fill < chunkSize) return;
      this.#fill = 0;
      yield encodeChunk(this.#codec, this.#pending, crc32c);
    }
    // Whole chunks straight from the caller's bytes: no copy into the pending buffer.
    for (; data.length - pos >= chunkSize; pos += chunkSize) {
      yield encodeChunk(this.#codec, data.subarray(pos, pos + chunkSize), crc32c);
    }
    if (pos < data.length) {
      this.#pending.set(data.subarray(pos), 0);
      this.#fill = data.length - pos;
    }
  }

  /** Encode the buffered partial chunk and close the stream; yields the last pieces. */
  *end(): Generator<Uint8Array, void, undefined> {
    if (this.#ended) return;
    this.#ended = true;
    if (!this.#started) {
      this.#started = true;
      yield STREAM_IDENTIFIER.slice();
    }
    if (this.#fill > 0) {
      const rest = this.#pending.subarray(0, this.#fill);
      this.#fill = 0;
      yield encodeChunk(this.#codec, rest, this.#settings.crc32c);
    }
  }
}

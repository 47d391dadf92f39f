import {
  bytesOf,
  concatBytes,
  DEFAULT_MAX_LENGTH,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import { type Crc32cFunction, crc32c as defaultCrc32c } from "./crc32c.js";
import {
  CHUNK_HEADER_SIZE,
  type ChunkDecodeContext,
  type ChunkKind,
  classifyChunk,
  corrupt,
  decodeChunkBody,
  ENCODED_CHUNK_LENGTH,
  readChunkLength,
} from "./format.js";
import { ownOptions } from "./options.js";
import { type ByteChunk, partsOf } from "./parts.js";

/** Options for {@link decodeFramed} and the streaming decoders. */
export interface DecodeFramedOptions {
  /**
   * Reject (`LENGTH_LIMIT`), before decompressing the chunk that would cross it, a stream that
   * decodes to more than this many bytes.
   * @default DEFAULT_MAX_LENGTH (256 MiB) for {@link decodeFramed}; unlimited for the streaming
   * decoders, whose memory is bounded by one chunk whatever the stream's length.
   */
  maxLength?: number;
  /**
   * Verify each data chunk's masked CRC-32C (`CHECKSUM_MISMATCH` when wrong).
   * @default true
   */
  verifyChecksums?: boolean;
  /**
   * CRC-32C implementation.
   * @default crc32c (native @node-rs/crc32 when it loads, else TypeScript)
   */
  crc32c?: Crc32cFunction;
}

const DECODE_OPTIONS = ["maxLength", "verifyChecksums", "crc32c"];

/**
 * The chunk context from `options` (own properties only), and the `maxLength` asked for.
 * @internal
 */
export function resolveDecodeContext(
  codec: SnappyCodec,
  options: DecodeFramedOptions | undefined,
): ChunkDecodeContext & { readonly maxLength: number | undefined } {
  const own = ownOptions(options, DECODE_OPTIONS);
  const verifyChecksums = own.verifyChecksums ?? true;
  const crc32c = own.crc32c ?? defaultCrc32c;
  if (typeof crc32c !== "function") {
    throw new SnappyError("bad-options", "crc32c must be a function");
  }
  if (!codec || typeof codec.uncompress !== "function") {
    throw new SnappyError("bad-argument", "codec must be a SnappyCodec");
  }
  return { codec, verifyChecksums, crc32c, maxLength: own.maxLength };
}

/** @internal */
export function resolveLimit(maxLength: number | undefined, fallback: number): number {
  const limit = maxLength ?? fallback;
  if (limit !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new SnappyError(
      "bad-options",
      `maxLength must be a non-negative integer, got ${maxLength}`,
    );
  }
  return limit;
}

const overLimit = (maxLength: number, produced: number) => (size: number) =>
  new SnappyError(
    "length-over-limit",
    `framed stream decodes to more than the maxLength of ${maxLength} bytes (${produced} decoded, next chunk adds ${size})`,
    { declared: produced + size, limit: maxLength, produced },
  );

/**
 * Decode a complete Snappy framed stream held in memory. Verifies every chunk's checksum
 * (unless `verifyChecksums: false`), skips padding and reserved skippable chunks, rejects
 * everything else the format forbids, and throws `LENGTH_LIMIT` past `maxLength`. An empty
 * input decodes to empty output, as with `snap` and Go's `snappy`.
 *
 * @throws SnappyError `CORRUPT_INPUT` (bad chunk type, oversize chunk, truncated stream, bad
 * compressed data), `CHECKSUM_MISMATCH`, `LENGTH_LIMIT`, `INVALID_ARGUMENT`.
 */
export function decodeFramed(
  codec: SnappyCodec,
  bytes: Uint8Array,
  options?: DecodeFramedOptions,
): Uint8Array {
  bytes = bytesOf(bytes);
  const ctx = resolveDecodeContext(codec, options);
  const maxLength = resolveLimit(ctx.maxLength, DEFAULT_MAX_LENGTH);
  const outputs: Uint8Array[] = [];
  // An uncompressed chunk's data is a view of `bytes` (see decodeChunkBody).
  let viewed = false;
  let produced = 0;
  let pos = 0;
  const n = bytes.length;
  while (pos < n) {
    if (n - pos < CHUNK_HEADER_SIZE) {
      throw corrupt(
        "truncated",
        `truncated stream: ${n - pos} byte(s) of a ${CHUNK_HEADER_SIZE}-byte chunk header`,
        pos,
      );
    }
    const length = readChunkLength(bytes, pos);
    const kind = classifyChunk(bytes[pos]!, length, pos, pos === 0);
    const start = pos + CHUNK_HEADER_SIZE;
    const end = start + length;
    if (end > n) {
      throw corrupt(
        "truncated",
        `truncated stream: chunk of ${length} bytes has only ${n - start} before the end`,
        pos,
        { length },
      );
    }
    if (kind !== "skip") {
      const out = decodeChunkBody(
        ctx,
        kind,
        bytes.subarray(start, end),
        pos,
        maxLength - produced,
        overLimit(maxLength, produced),
      );
      if (out !== undefined && out.length > 0) {
        outputs.push(out);
        produced += out.length;
        viewed ||= kind === "uncompressed";
      }
    }
    pos = end;
  }
  // One compressed chunk's output is the codec's, owned; every other way is a new array.
  return outputs.length === 1 && !viewed ? outputs[0]! : concatBytes(outputs);
}

/**
 * Incremental framed decoder: feed arbitrary slices of a stream with {@link FrameDecoder.write}
 * and close with {@link FrameDecoder.end}. Keeps at most one chunk between calls (the 76,494
 * bytes an encoder's chunk can take; a longer legal one, up to `MAX_COMPRESSED_CHUNK_LENGTH`,
 * grows the buffer to its size) and skips padding/skippable chunks without buffering them, so
 * memory is bounded whatever the stream's size. Yields one piece per data chunk, each owned by the caller.
 */
export class FrameDecoder {
  readonly #ctx: ChunkDecodeContext;
  readonly #maxLength: number;
  readonly #header = new Uint8Array(CHUNK_HEADER_SIZE);
  #headerFill = 0;
  #kind: ChunkKind | null = null;
  #length = 0;
  #chunkAt = 0;
  #skipLeft = 0;
  #body: Uint8Array | null = null;
  #bodyFill = 0;
  #consumed = 0;
  #first = true;
  #produced = 0;
  #ended = false;

  constructor(codec: SnappyCodec, options?: DecodeFramedOptions) {
    const ctx = resolveDecodeContext(codec, options);
    this.#ctx = ctx;
    this.#maxLength = resolveLimit(ctx.maxLength, Number.POSITIVE_INFINITY);
  }

  /** Total uncompressed bytes yielded so far. */
  get produced(): number {
    return this.#produced;
  }

  /**
   * Consume `bytes` (a `Uint8Array`, or a list of parts such as a `Uint8ArrayList`, read part
   * by part in place); yields the data of every chunk they complete.
   */
  *write(bytes: ByteChunk): Generator<Uint8Array, void, undefined> {
    if (this.#ended) throw new SnappyError("bad-argument", "write after end");
    for (const part of partsOf(bytes, "input")) yield* this.#write(part);
  }

  *#write(bytes: Uint8Array): Generator<Uint8Array, void, undefined> {
    const base = this.#consumed;
    const n = bytes.length;
    let pos = 0;
    try {
      while (pos < n) {
        if (this.#kind === null) {
          // The header from this slice when it holds it whole, else gathered across slices.
          let header: Uint8Array;
          let at: number;
          if (this.#headerFill === 0 && n - pos >= CHUNK_HEADER_SIZE) {
            header = bytes;
            at = pos;
            this.#chunkAt = base + pos;
            pos += CHUNK_HEADER_SIZE;
          } else {
            if (this.#headerFill === 0) this.#chunkAt = base + pos;
            const take = Math.min(CHUNK_HEADER_SIZE - this.#headerFill, n - pos);
            this.#header.set(bytes.subarray(pos, pos + take), this.#headerFill);
            this.#headerFill += take;
            pos += take;
            if (this.#headerFill < CHUNK_HEADER_SIZE) break;
            this.#headerFill = 0;
            header = this.#header;
            at = 0;
          }
          const length = readChunkLength(header, at);
          const kind = classifyChunk(header[at]!, length, this.#chunkAt, this.#first);
          this.#first = false;
          this.#kind = kind;
          this.#length = length;
          this.#skipLeft = kind === "skip" ? length : 0;
          this.#bodyFill = 0;
          if (kind !== "skip" || length === 0) {
            if (kind === "skip") this.#kind = null;
            continue;
          }
        }
        if (this.#kind === "skip") {
          const take = Math.min(this.#skipLeft, n - pos);
          pos += take;
          this.#skipLeft -= take;
          if (this.#skipLeft === 0) this.#kind = null;
          continue;
        }
        const length = this.#length;
        let body: Uint8Array;
        if (this.#bodyFill === 0 && n - pos >= length) {
          // The whole chunk is in this slice: decode in place, no copy.
          body = bytes.subarray(pos, pos + length);
          pos += length;
        } else {
          // Room for any chunk an encoder writes, grown only for a longer (legal) one.
          if (this.#body === null || this.#body.length < length) {
            this.#body = new Uint8Array(Math.max(length, ENCODED_CHUNK_LENGTH));
          }
          const take = Math.min(length - this.#bodyFill, n - pos);
          this.#body.set(bytes.subarray(pos, pos + take), this.#bodyFill);
          this.#bodyFill += take;
          pos += take;
          if (this.#bodyFill < length) break;
          body = this.#body.subarray(0, length);
        }
        const kind = this.#kind;
        this.#kind = null;
        this.#bodyFill = 0;
        const out = decodeChunkBody(
          this.#ctx,
          kind,
          body,
          this.#chunkAt,
          this.#maxLength - this.#produced,
          overLimit(this.#maxLength, this.#produced),
        );
        if (out !== undefined && out.length > 0) {
          this.#produced += out.length;
          // Uncompressed chunk data is a view into the input or our reused buffer: copy it
          // (`new Uint8Array(view)`, not `slice()`: a Buffer's slice is another view).
          yield kind === "uncompressed" ? new Uint8Array(out) : out;
        }
      }
    } finally {
      this.#consumed = base + pos;
    }
  }

  /**
   * Signal the end of the stream. Throws `CORRUPT_INPUT` if it ends inside a chunk (a
   * truncated stream); a stream may end after any whole chunk (framing_format.txt §1).
   */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#headerFill > 0) {
      throw corrupt(
        "truncated",
        `truncated stream: ends after ${this.#headerFill} byte(s) of a ${CHUNK_HEADER_SIZE}-byte chunk header`,
        this.#chunkAt,
      );
    }
    if (this.#kind !== null) {
      const have = this.#kind === "skip" ? this.#length - this.#skipLeft : this.#bodyFill;
      throw corrupt(
        "truncated",
        `truncated stream: chunk of ${this.#length} bytes ends after ${have}`,
        this.#chunkAt,
        { length: this.#length },
      );
    }
  }
}

// Ethereum consensus req/resp `ssz_snappy` encoding (consensus-specs, phase0/p2p-interface.md,
// "Encoding strategies"): <unsigned protobuf varint of the SSZ length> <Snappy framed stream>.
import {
  bytesOf,
  checkOptions,
  concatBytes,
  encodeVarint,
  maxCompressedLength,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import type { Crc32cFunction } from "./crc32c.js";
import { type DecodeFramedOptions, resolveDecodeContext } from "./decode.js";
import { type EncodeFramedOptions, encodeFramedAfter, resolveEncodeOptions } from "./encode.js";
import {
  CHUNK_HEADER_SIZE,
  type ChunkDecodeContext,
  type ChunkKind,
  ChunkType,
  classifyChunk,
  decodeChunkBody,
  readChunkLength,
} from "./format.js";
import { type ByteReader, type ByteSource, ByteReader as Reader } from "./stream.js";

/** The consensus spec's `MAX_PAYLOAD_SIZE`: no ssz_snappy payload may exceed 10 MiB. */
export const MAX_PAYLOAD_SIZE = 10 * 1024 * 1024;

/** Longest length prefix accepted: an unsigned protobuf varint of a uint64 is ≤ 10 bytes. */
export const MAX_VARINT_BYTES = 10;

/** The SSZ type's size bounds, and decoding options. */
export interface SszSnappyBounds {
  /** Smallest valid SSZ serialization of the expected type, in bytes. */
  minSize: number;
  /** Largest valid SSZ serialization of the expected type, in bytes. */
  maxSize: number;
  /**
   * Upper bound applied on top of `maxSize`.
   * @default MAX_PAYLOAD_SIZE (10 MiB)
   */
  maxPayloadSize?: number;
  /** @default true */
  verifyChecksums?: boolean;
  /** @default crc32c (native when it loads) */
  crc32c?: Crc32cFunction;
}

/** Options for {@link encodeSszSnappy}. */
export interface EncodeSszSnappyOptions extends EncodeFramedOptions {
  /** @default MAX_PAYLOAD_SIZE (10 MiB) */
  maxPayloadSize?: number;
}

const ENCODE_OPTIONS = ["chunkSize", "crc32c", "maxPayloadSize"];
const BOUNDS = ["minSize", "maxSize", "maxPayloadSize", "verifyChecksums", "crc32c"];

const isSize = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * Encode an SSZ payload as `ssz_snappy`: its length as an unsigned varint, then the framed
 * stream. Throws `LENGTH_LIMIT` for a payload over `maxPayloadSize`.
 */
export function encodeSszSnappy(
  codec: SnappyCodec,
  ssz: Uint8Array,
  options?: EncodeSszSnappyOptions,
): Uint8Array {
  ssz = bytesOf(ssz, "ssz");
  const settings = resolveEncodeOptions(options, ENCODE_OPTIONS);
  const limit = checkOptions(options, ENCODE_OPTIONS).maxPayloadSize ?? MAX_PAYLOAD_SIZE;
  if (ssz.length > limit) {
    throw new SnappyError(
      "length-over-limit",
      `ssz payload of ${ssz.length} bytes exceeds MAX_PAYLOAD_SIZE (${limit})`,
      { declared: ssz.length, limit },
    );
  }
  return encodeFramedAfter(codec, ssz, settings, encodeVarint(ssz.length));
}

/**
 * A by-range response as the responder writes it: one `ssz_snappy` payload per item, back to
 * back. (The per-chunk result byte and fork-digest context bytes of req/resp are not part of
 * the encoding and are left to the caller.)
 */
export function encodeSszSnappySequence(
  codec: SnappyCodec,
  items: readonly Uint8Array[],
  options?: EncodeSszSnappyOptions,
): Uint8Array {
  return concatBytes(items.map((item) => encodeSszSnappy(codec, item, options)));
}

interface Limits {
  readonly minSize: number;
  readonly maxSize: number;
  readonly ctx: ChunkDecodeContext;
}

function resolveBounds(codec: SnappyCodec, given: SszSnappyBounds): Limits {
  const bounds = checkOptions(given, BOUNDS, "bounds");
  if (given === undefined || !isSize(bounds.minSize) || !isSize(bounds.maxSize)) {
    throw new SnappyError(
      "bad-options",
      "bounds.minSize and bounds.maxSize must be non-negative integers",
    );
  }
  const payloadLimit = bounds.maxPayloadSize ?? MAX_PAYLOAD_SIZE;
  if (!isSize(payloadLimit)) {
    throw new SnappyError("bad-options", "bounds.maxPayloadSize must be a non-negative integer");
  }
  const options: DecodeFramedOptions = {};
  if (bounds.verifyChecksums !== undefined) options.verifyChecksums = bounds.verifyChecksums;
  if (bounds.crc32c !== undefined) options.crc32c = bounds.crc32c;
  return {
    minSize: bounds.minSize,
    maxSize: Math.min(bounds.maxSize, payloadLimit),
    ctx: resolveDecodeContext(codec, options),
  };
}

/** Incremental state of one payload: shared by the buffer and stream readers. */
class PayloadState {
  readonly n: number;
  /** Framed bytes the spec lets us read: max_compressed_len(n). */
  readonly budget: number;
  readonly #ctx: ChunkDecodeContext;
  #out: Uint8Array | undefined;
  produced = 0;
  read = 0;
  first = true;

  constructor(n: number, ctx: ChunkDecodeContext) {
    this.n = n;
    this.budget = maxCompressedLength(n);
    this.#ctx = ctx;
  }

  /** Check a chunk header before reading its body; returns its kind. */
  header(type: number, length: number, at: number): ChunkKind {
    const kind = classifyChunk(type, length, at, this.first);
    this.first = false;
    const end = this.read + CHUNK_HEADER_SIZE + length;
    if (end > this.budget) {
      throw new SnappyError(
        "read-budget-exceeded",
        `ssz_snappy payload of ${this.n} bytes needs more than max_compressed_len(${this.n}) = ${this.budget} framed bytes (chunk at byte ${at} would end at ${end})`,
        { at, declared: this.n, limit: this.budget, length: end },
      );
    }
    return kind;
  }

  body(kind: ChunkKind, body: Uint8Array, at: number): void {
    if (kind === "skip") return;
    const data = decodeChunkBody(
      this.#ctx,
      kind,
      body,
      at,
      this.n - this.produced,
      (size) =>
        new SnappyError(
          "output-overrun",
          `ssz_snappy payload decodes past its length prefix of ${this.n} bytes (${this.produced} decoded, chunk at byte ${at} adds ${size})`,
          { at, declared: this.n, produced: this.produced, length: size },
        ),
    );
    if (data === undefined || data.length === 0) return;
    if (this.produced === 0 && data.length === this.n && kind === "compressed") {
      this.#out = data; // the common one-chunk payload: the codec's output is the result
    } else {
      this.#out ??= new Uint8Array(this.n);
      this.#out.set(data, this.produced);
    }
    this.produced += data.length;
  }

  result(): Uint8Array {
    return this.#out ?? new Uint8Array(0);
  }

  truncated(): SnappyError {
    return new SnappyError(
      "truncated",
      `truncated ssz_snappy payload: input ended after ${this.produced} of ${this.n} bytes`,
      { declared: this.n, produced: this.produced },
    );
  }
}

function checkLength(n: number, limits: Limits): void {
  if (n > limits.maxSize) {
    throw new SnappyError(
      "length-over-limit",
      `ssz_snappy length prefix ${n} exceeds the maximum of ${limits.maxSize} bytes`,
      { declared: n, limit: limits.maxSize },
    );
  }
  if (n < limits.minSize) {
    throw new SnappyError(
      "length-under-minimum",
      `ssz_snappy length prefix ${n} is below the type's minimum of ${limits.minSize} bytes`,
      { declared: n, limit: limits.minSize },
    );
  }
}

/** Accumulate one varint byte; returns the value when complete. */
function varintStep(state: { value: number; count: number }, byte: number): number | undefined {
  state.value += (byte & 0x7f) * 2 ** (7 * state.count);
  state.count++;
  if (byte & 0x80) {
    if (state.count >= MAX_VARINT_BYTES) {
      throw new SnappyError(
        "prefix-overlong",
        `ssz_snappy length prefix is longer than ${MAX_VARINT_BYTES} bytes`,
        { limit: MAX_VARINT_BYTES },
      );
    }
    return undefined;
  }
  if (byte === 0 && state.count > 1) {
    throw new SnappyError(
      "non-minimal-prefix",
      "ssz_snappy length prefix is not minimally encoded (trailing 0x00 varint byte)",
      { length: state.count },
    );
  }
  return state.value;
}

/**
 * Decode one `ssz_snappy` payload starting at `offset` of `bytes`, leaving whatever follows it:
 * use it to walk a buffered by-range response. Returns the SSZ bytes and the offset just past
 * the payload.
 */
export function decodeSszSnappyAt(
  codec: SnappyCodec,
  bytes: Uint8Array,
  offset: number,
  bounds: SszSnappyBounds,
): { ssz: Uint8Array; end: number } {
  bytes = bytesOf(bytes);
  const limits = resolveBounds(codec, bounds);
  let pos = offset;
  const v = { value: 0, count: 0 };
  let n: number | undefined;
  while (n === undefined) {
    if (pos >= bytes.length) {
      throw new SnappyError(
        "truncated",
        v.count === 0
          ? "empty input: missing the ssz_snappy length prefix"
          : `truncated ssz_snappy length prefix after ${v.count} byte(s)`,
        { length: v.count },
      );
    }
    n = varintStep(v, bytes[pos++]!);
  }
  checkLength(n, limits);
  const state = new PayloadState(n, limits.ctx);
  const framedStart = pos;
  // An empty payload may carry just the stream identifier, or nothing at all.
  const wantIdentifier = n === 0 && bytes[pos] === ChunkType.streamIdentifier;
  while (state.produced < n || (wantIdentifier && state.first)) {
    if (bytes.length - pos < CHUNK_HEADER_SIZE) throw state.truncated();
    const length = readChunkLength(bytes, pos);
    state.read = pos - framedStart;
    const kind = state.header(bytes[pos]!, length, pos);
    const start = pos + CHUNK_HEADER_SIZE;
    const end = start + length;
    if (end > bytes.length) throw state.truncated();
    state.body(kind, bytes.subarray(start, end), pos);
    pos = end;
  }
  return { ssz: state.result(), end: pos };
}

/**
 * Decode a whole by-range response held in memory: `ssz_snappy` payloads back to back, as
 * {@link encodeSszSnappySequence} writes them. Every payload is checked against `bounds`.
 */
export function decodeSszSnappySequence(
  codec: SnappyCodec,
  bytes: Uint8Array,
  bounds: SszSnappyBounds,
): Uint8Array[] {
  const out: Uint8Array[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const { ssz, end } = decodeSszSnappyAt(codec, bytes, pos, bounds);
    out.push(ssz);
    pos = end;
  }
  return out;
}

/**
 * Read one `ssz_snappy` payload from a {@link ByteReader}, consuming exactly its bytes and
 * never more than the prefix and max_compressed_len(n) framed bytes; the reader is left at the
 * next message.
 */
export async function readSszSnappy(
  codec: SnappyCodec,
  reader: ByteReader,
  bounds: SszSnappyBounds,
): Promise<Uint8Array> {
  const limits = resolveBounds(codec, bounds);
  const v = { value: 0, count: 0 };
  let n: number | undefined;
  while (n === undefined) {
    const byte = await reader.readByte();
    if (byte === undefined) {
      throw new SnappyError(
        "truncated",
        v.count === 0
          ? "empty input: missing the ssz_snappy length prefix"
          : `truncated ssz_snappy length prefix after ${v.count} byte(s)`,
        { length: v.count },
      );
    }
    n = varintStep(v, byte);
  }
  checkLength(n, limits);
  const state = new PayloadState(n, limits.ctx);
  const framedStart = reader.position;
  const wantIdentifier = n === 0 && (await reader.peekByte()) === ChunkType.streamIdentifier;
  while (state.produced < n || (wantIdentifier && state.first)) {
    const at = reader.position;
    const header = await reader.read(CHUNK_HEADER_SIZE);
    if (header === undefined) throw state.truncated();
    const length = readChunkLength(header, 0);
    state.read = at - framedStart;
    const kind = state.header(header[0]!, length, at);
    const body = await reader.read(length);
    if (body === undefined) throw state.truncated();
    state.body(kind, body, at);
  }
  return state.result();
}

/**
 * Decode one `ssz_snappy` payload, applying the consensus spec's rules: a ≤ 10-byte minimally
 * encoded varint prefix within `[minSize, min(maxSize, MAX_PAYLOAD_SIZE)]`, at most
 * max_compressed_len(n) framed bytes read, the decoded length equal to the prefix, and no early
 * EOF or trailing bytes. From a `Uint8Array` it returns synchronously; from a stream source it
 * returns a promise and reads the source to its end.
 *
 * @throws SnappyError `LENGTH_LIMIT` (prefix over the bound), `CORRUPT_INPUT` (bad prefix,
 * truncation, trailing bytes, length mismatch, bad chunk), `CHECKSUM_MISMATCH`.
 */
export function decodeSszSnappy(
  codec: SnappyCodec,
  source: Uint8Array,
  bounds: SszSnappyBounds,
): Uint8Array;
export function decodeSszSnappy(
  codec: SnappyCodec,
  source: ByteSource,
  bounds: SszSnappyBounds,
): Promise<Uint8Array>;
export function decodeSszSnappy(
  codec: SnappyCodec,
  source: Uint8Array | ByteSource,
  bounds: SszSnappyBounds,
): Uint8Array | Promise<Uint8Array> {
  if (source instanceof Uint8Array) {
    const { ssz, end } = decodeSszSnappyAt(codec, source, 0, bounds);
    if (end !== source.length) throw trailing(source.length - end);
    return ssz;
  }
  // Bad arguments throw here, as for a Uint8Array; only reading the source is asynchronous.
  resolveBounds(codec, bounds);
  const reader = new Reader(source);
  return (async () => {
    const ssz = await readSszSnappy(codec, reader, bounds);
    if (!(await reader.atEnd())) throw trailing(undefined);
    return ssz;
  })();
}

function trailing(count: number | undefined): SnappyError {
  return new SnappyError(
    "trailing-bytes",
    `${count ?? "some"} trailing byte(s) after the ssz_snappy payload`,
    count === undefined ? undefined : { length: count },
  );
}

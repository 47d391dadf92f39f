// Ethereum consensus req/resp `ssz_snappy` encoding (consensus-specs, phase0/p2p-interface.md,
// "Encoding strategies"): <unsigned protobuf varint of the SSZ length> <Snappy framed stream>.
import {
  bytesOf,
  concatBytes,
  encodeVarint,
  maxCompressedLength,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import {
  type ByteReader,
  type ByteSource,
  type Crc32cFunction,
  type DecodeFramedOptions,
  type EncodeFramedOptions,
  ByteReader as Reader,
} from "@snappykit/framing";
import {
  CHECKSUM_SIZE,
  CHUNK_HEADER_SIZE,
  type ChunkDecodeContext,
  type ChunkKind,
  ChunkType,
  classifyChunk,
  decodeChunkBody,
  encodeFramedAfter,
  ownOptions,
  readChunkLength,
  readerInternals,
  readU32LE,
  resolveDecodeContext,
  resolveEncodeOptions,
  verifyChecksum,
} from "@snappykit/framing/chunks";
import "./reasons.js"; // defines the reasons thrown here

/** The consensus spec's `MAX_PAYLOAD_SIZE`: no ssz_snappy payload may exceed 10 MiB. */
export const MAX_PAYLOAD_SIZE = 10 * 1024 * 1024;

/** Longest length prefix accepted: an unsigned protobuf varint of a uint64 is ≤ 10 bytes. */
export const MAX_VARINT_BYTES = 10;

/**
 * The SSZ type's size bounds, and decoding options. Any object with own `minSize`/`maxSize`
 * will do, an SSZ type from `@chainsafe/ssz` included: only the keys below are read, as own
 * properties. A plain object (an object literal) with any other key is refused, to catch a
 * misspelt option; another object's other keys (an SSZ type's methods and fields) are ignored.
 */
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
  /**
   * Accept a length prefix with redundant bytes (`d4 00` for 84), which the spec says SHOULD
   * NOT be written; Teku accepts it. See docs/policy.md.
   * @default false (`CORRUPT_INPUT`, reason `non-minimal-prefix`)
   */
  allowNonMinimalPrefix?: boolean;
}

/** Options for {@link encodeSszSnappy}. */
export interface EncodeSszSnappyOptions extends EncodeFramedOptions {
  /** @default MAX_PAYLOAD_SIZE (10 MiB) */
  maxPayloadSize?: number;
}

const ENCODE_OPTIONS = ["chunkSize", "crc32c", "maxPayloadSize"];
const BOUNDS = [
  "minSize",
  "maxSize",
  "maxPayloadSize",
  "verifyChecksums",
  "crc32c",
  "allowNonMinimalPrefix",
] as const;

const isSize = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
// An SSZ type's maxSize may be past 2^53 (a list of lists): only its size against the cap counts.
const isMaxSize = (n: unknown): n is number =>
  typeof n === "number" && n >= 0 && (Number.isInteger(n) || n === Number.POSITIVE_INFINITY);

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
  const limit = ownOptions(options, ENCODE_OPTIONS).maxPayloadSize ?? MAX_PAYLOAD_SIZE;
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
  readonly allowNonMinimalPrefix: boolean;
  readonly ctx: ChunkDecodeContext;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The known keys of `given`, own properties only (see {@link SszSnappyBounds}). */
function readBounds(given: SszSnappyBounds): Partial<SszSnappyBounds> {
  const proto: unknown =
    typeof given === "object" && given !== null ? Object.getPrototypeOf(given) : undefined;
  if (proto === Object.prototype || proto === null || Array.isArray(given) || proto === undefined) {
    return ownOptions(given, BOUNDS, "bounds");
  }
  const own: Record<string, unknown> = Object.create(null);
  for (const key of BOUNDS) if (hasOwn.call(given, key)) own[key] = given[key];
  return own as Partial<SszSnappyBounds>;
}

function resolveBounds(codec: SnappyCodec, given: SszSnappyBounds): Limits {
  const bounds = readBounds(given);
  if (given === undefined || !isSize(bounds.minSize) || !isMaxSize(bounds.maxSize)) {
    throw new SnappyError(
      "bad-options",
      "bounds.minSize and bounds.maxSize must be non-negative integers",
    );
  }
  const payloadLimit = bounds.maxPayloadSize ?? MAX_PAYLOAD_SIZE;
  if (!isSize(payloadLimit)) {
    throw new SnappyError("bad-options", "bounds.maxPayloadSize must be a non-negative integer");
  }
  const allowNonMinimalPrefix = bounds.allowNonMinimalPrefix ?? false;
  if (typeof allowNonMinimalPrefix !== "boolean") {
    throw new SnappyError("bad-options", "bounds.allowNonMinimalPrefix must be a boolean");
  }
  const options: DecodeFramedOptions = {};
  if (bounds.verifyChecksums !== undefined) options.verifyChecksums = bounds.verifyChecksums;
  if (bounds.crc32c !== undefined) options.crc32c = bounds.crc32c;
  return {
    minSize: bounds.minSize,
    maxSize: Math.min(bounds.maxSize, payloadLimit),
    allowNonMinimalPrefix,
    ctx: resolveDecodeContext(codec, options),
  };
}

/** Incremental state of one payload: shared by the buffer and stream readers. */
class PayloadState {
  readonly n: number;
  /** Framed bytes the spec lets us read: max_compressed_len(n). */
  readonly budget: number;
  readonly #ctx: ChunkDecodeContext;
  /**
   * The output: each chunk's data in an array of its own until half the prefix's length has
   * arrived, then one array of exactly `n` (the chunks so far copied in). Memory follows the
   * bytes received, never the prefix alone; the peak is 1.5 × `n`.
   */
  #parts: Uint8Array[] = [];
  #out: Uint8Array | undefined;
  produced = 0;
  /** Framed bytes read so far, chunk headers and bodies. */
  read = 0;
  first = true;

  constructor(n: number, ctx: ChunkDecodeContext) {
    this.n = n;
    this.budget = maxCompressedLength(n);
    this.#ctx = ctx;
  }

  /** Check a chunk header before reading its body (it must fit the budget); returns its kind. */
  header(type: number, length: number, at: number): ChunkKind {
    const kind = classifyChunk(type, length, at, this.first);
    this.first = false;
    this.#withinBudget(this.read + CHUNK_HEADER_SIZE + length, at, "the chunk");
    this.read += CHUNK_HEADER_SIZE + length;
    return kind;
  }

  /** Throw before reading a chunk header that would end past the budget. */
  beforeHeader(at: number): void {
    this.#withinBudget(this.read + CHUNK_HEADER_SIZE, at, "the chunk header");
  }

  #withinBudget(end: number, at: number, what: string): void {
    if (end > this.budget) {
      throw new SnappyError(
        "read-budget-exceeded",
        `ssz_snappy payload of ${this.n} bytes needs more than max_compressed_len(${this.n}) = ${this.budget} framed bytes (${what} at byte ${at} would take them to ${end}; ${this.produced} bytes decoded)`,
        { at, declared: this.n, limit: this.budget, length: end, produced: this.produced },
      );
    }
  }

  #overBudget(at: number): (size: number) => SnappyError {
    return (size) =>
      new SnappyError(
        "output-overrun",
        `ssz_snappy payload decodes past its length prefix of ${this.n} bytes (${this.produced} decoded, chunk at byte ${at} adds ${size})`,
        { at, declared: this.n, produced: this.produced, length: size },
      );
  }

  /** Room for `size` more bytes at `produced` (`size` ≤ what the prefix leaves). */
  #room = (size: number): Uint8Array => {
    const end = this.produced + size;
    if (this.#out === undefined && 2 * end >= this.n) {
      this.#out = new Uint8Array(this.n);
      let pos = 0;
      for (const part of this.#parts) {
        this.#out.set(part, pos);
        pos += part.length;
      }
      this.#parts = [];
    }
    if (this.#out !== undefined) return this.#out.subarray(this.produced, end);
    const part = new Uint8Array(size);
    this.#parts.push(part);
    return part;
  };

  body(kind: ChunkKind, body: Uint8Array, at: number): void {
    if (kind === "skip") return;
    const left = this.n - this.produced;
    const data = decodeChunkBody(this.#ctx, kind, body, at, left, this.#overBudget(at), this.#room);
    if (data !== undefined) this.produced += data.length;
  }

  /**
   * An uncompressed chunk's data read from `reader` straight into the output (no copy of the
   * body on the way); `length` is the chunk's body length, CRC included.
   */
  async uncompressedFrom(reader: ByteReader, length: number, at: number): Promise<boolean> {
    const crc = await readerInternals.view(reader, CHECKSUM_SIZE);
    if (crc === undefined) return false;
    const stored = readU32LE(crc, 0);
    const size = length - CHECKSUM_SIZE;
    if (size > this.n - this.produced) throw this.#overBudget(at)(size);
    const data = this.#room(size);
    if (!(await readerInternals.readInto(reader, data))) return false;
    verifyChecksum(this.#ctx, "uncompressed", stored, data, at);
    this.produced += size;
    return true;
  }

  /** The payload, once `produced` is `n`. */
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

/** A length prefix being read, a byte at a time. */
interface Prefix {
  value: number;
  count: number;
  readonly allowNonMinimal: boolean;
}

/** Accumulate one varint byte (`undefined`: the input ended); returns the value when complete. */
function varintStep(state: Prefix, byte: number | undefined): number | undefined {
  if (byte === undefined) {
    throw new SnappyError(
      "truncated",
      state.count === 0
        ? "empty input: missing the ssz_snappy length prefix"
        : `truncated ssz_snappy length prefix after ${state.count} byte(s)`,
      { length: state.count },
    );
  }
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
  if (byte === 0 && state.count > 1 && !state.allowNonMinimal) {
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
  const prefix: Prefix = { value: 0, count: 0, allowNonMinimal: limits.allowNonMinimalPrefix };
  let n: number | undefined;
  while (n === undefined) n = varintStep(prefix, pos < bytes.length ? bytes[pos++] : undefined);
  checkLength(n, limits);
  const state = new PayloadState(n, limits.ctx);
  // An empty payload may carry just the stream identifier, or nothing at all.
  const wantIdentifier = n === 0 && bytes[pos] === ChunkType.streamIdentifier;
  while (state.produced < n || (wantIdentifier && state.first)) {
    state.beforeHeader(pos);
    if (bytes.length - pos < CHUNK_HEADER_SIZE) throw state.truncated();
    const length = readChunkLength(bytes, pos);
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
 * never pulling more than the prefix and max_compressed_len(n) framed bytes (the budget is
 * checked before each chunk header and each body is read); the reader is left at the next
 * message. On an error the reader stays where it failed: `reader.cancel()` stops the source.
 */
export async function readSszSnappy(
  codec: SnappyCodec,
  reader: ByteReader,
  bounds: SszSnappyBounds,
): Promise<Uint8Array> {
  const limits = resolveBounds(codec, bounds);
  const prefix: Prefix = { value: 0, count: 0, allowNonMinimal: limits.allowNonMinimalPrefix };
  let n: number | undefined;
  while (n === undefined) n = varintStep(prefix, await reader.readByte());
  checkLength(n, limits);
  const state = new PayloadState(n, limits.ctx);
  const wantIdentifier = n === 0 && (await reader.peekByte()) === ChunkType.streamIdentifier;
  while (state.produced < n || (wantIdentifier && state.first)) {
    const at = reader.position;
    // The budget is checked before each pull: no byte past max_compressed_len(n) is read.
    state.beforeHeader(at);
    const header = await readerInternals.view(reader, CHUNK_HEADER_SIZE);
    if (header === undefined) throw state.truncated();
    const length = readChunkLength(header, 0);
    const kind = state.header(header[0]!, length, at);
    if (kind === "skip") {
      if (!(await readerInternals.skip(reader, length))) throw state.truncated();
      continue;
    }
    if (kind === "uncompressed") {
      if (!(await state.uncompressedFrom(reader, length, at))) throw state.truncated();
      continue;
    }
    const body = await readerInternals.view(reader, length);
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
    try {
      const ssz = await readSszSnappy(codec, reader, bounds);
      if (!(await reader.atEnd())) throw trailing(undefined);
      return ssz;
    } catch (error) {
      await reader.cancel(); // the source is not read on: tell it
      throw error;
    }
  })();
}

function trailing(count: number | undefined): SnappyError {
  return new SnappyError(
    "trailing-bytes",
    `${count ?? "some"} trailing byte(s) after the ssz_snappy payload`,
    count === undefined ? {} : { length: count },
  );
}

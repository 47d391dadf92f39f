// Req/resp codecs of the consensus spec (phase0/p2p-interface.md "The Req/Resp domain",
// altair/p2p-interface.md "ForkDigest-context") in libp2p's shapes: readers of a
// libp2p 3 stream (an async iterable of `Uint8Array | Uint8ArrayList`, read in place) and a
// writer with backpressure (`send()`, `onDrain()`, `close()`).
//
//   request         ::= <encoding-dependent-header> | <encoded-payload>
//   response        ::= <response_chunk>*
//   response_chunk  ::= <result> | <context-bytes> | <encoding-dependent-header> | <encoded-payload>
import { bytesOf, checkOptions, type SnappyCodec, SnappyError, withContext } from "@snappykit/core";
import { type ByteChunk, ByteReader } from "@snappykit/framing";
import { callbackFault, codecFault } from "./faults.js";
import type { SizeBounds } from "./gossip.js";
import "./reasons.js"; // defines the reasons thrown here
import {
  decodeSszSnappy,
  type EncodeSszSnappyOptions,
  encodeSszSnappy,
  readSszSnappy,
  type SszSnappyBounds,
} from "./ssz-snappy.js";

/** The `<result>` byte of a response chunk. */
export const ResultCode = {
  SUCCESS: 0,
  INVALID_REQUEST: 1,
  SERVER_ERROR: 2,
  RESOURCE_UNAVAILABLE: 3,
} as const;

/** An error `<result>`: 1–3, or 128–255 (the spec leaves those to clients). */
export type ErrorResultCode = 1 | 2 | 3 | number;

/** Length of `<context-bytes>` for a `ForkDigest`-context. */
export const FORK_DIGEST_LENGTH = 4;

/** `ErrorMessage` is `List[byte, 256]`. */
export const MAX_ERROR_MESSAGE_SIZE = 256;

/** One successful response chunk: its SSZ bytes and, for `ForkDigest`-context methods, the digest. */
export interface ResponseChunk {
  readonly ssz: Uint8Array;
  readonly context?: Uint8Array;
}

/** An error response chunk: the last chunk of a response. */
export interface ErrorChunk {
  readonly result: ErrorResultCode;
  /** Encoded as UTF-8 and cut at 256 bytes. */
  readonly message: string;
}

/**
 * The peer answered with an error `<result>` (1 InvalidRequest, 2 ServerError,
 * 3 ResourceUnavailable, or 128–255): a valid response, not a decoding failure.
 */
export class ResponseError extends Error {
  override readonly name = "ResponseError";
  /** The `<result>` byte. */
  readonly result: number;
  /** The `ErrorMessage` bytes as sent (empty when there was none). */
  readonly errorMessage: Uint8Array;
  constructor(result: number, errorMessage: Uint8Array) {
    const text = new TextDecoder().decode(errorMessage);
    super(`peer responded with result ${result}${text ? `: ${text}` : ""}`);
    this.result = result;
    this.errorMessage = errorMessage;
  }
  /** The `ErrorMessage` decoded as UTF-8 (invalid sequences replaced). */
  get text(): string {
    return new TextDecoder().decode(this.errorMessage);
  }
}

/** Options of the encoders. */
export interface EncodeOptions {
  /** The codec that compresses: any snappykit codec. */
  codec: SnappyCodec;
  /** @default MAX_PAYLOAD_SIZE (10 MiB) */
  maxPayloadSize?: number;
}

/** Options of {@link decodeRequest}. */
export interface DecodeRequestOptions {
  /** The codec that decompresses: any snappykit codec. */
  codec: SnappyCodec;
  /** The request type's bounds (an SSZ type will do), capped by `maxPayloadSize`. */
  bounds: SizeBounds;
  /** @default MAX_PAYLOAD_SIZE (10 MiB) */
  maxPayloadSize?: number;
  signal?: AbortSignal;
}

/** Options of {@link decodeResponse}. */
export interface DecodeResponseOptions {
  /** The codec that decompresses: any snappykit codec. */
  codec: SnappyCodec;
  /**
   * The chunk type's bounds: fixed, or, for a `ForkDigest`-context method, a function of the
   * chunk's 4 context bytes (`undefined` for a digest the client does not know).
   */
  bounds: SizeBounds | ((forkDigest: Uint8Array) => SizeBounds | undefined);
  /** Most success chunks accepted (a by-range request's `count`). @default Infinity */
  maxChunks?: number;
  /** @default MAX_PAYLOAD_SIZE (10 MiB) */
  maxPayloadSize?: number;
  signal?: AbortSignal;
}

const ENCODE_OPTIONS = ["codec", "maxPayloadSize"];
const REQUEST_OPTIONS = ["codec", "bounds", "maxPayloadSize", "signal"];
const RESPONSE_OPTIONS = ["codec", "bounds", "maxChunks", "maxPayloadSize", "signal"];
const ERROR_MESSAGE_BOUNDS = { minSize: 0, maxSize: MAX_ERROR_MESSAGE_SIZE };

function payloadOptions(maxPayloadSize: number | undefined): EncodeSszSnappyOptions | undefined {
  return maxPayloadSize === undefined ? undefined : { maxPayloadSize };
}

function sszBounds(bounds: SizeBounds, maxPayloadSize: number | undefined): SszSnappyBounds {
  const out: SszSnappyBounds = { minSize: bounds?.minSize, maxSize: bounds?.maxSize };
  if (maxPayloadSize !== undefined) out.maxPayloadSize = maxPayloadSize;
  return out;
}

function codecOf(options: { codec?: SnappyCodec }): SnappyCodec {
  const codec = options.codec;
  if (typeof codec?.uncompress !== "function" || typeof codec.compress !== "function") {
    throw new SnappyError("bad-options", "options.codec must be a SnappyCodec");
  }
  return codec;
}

/** `ssz` as `ssz_snappy`; a codec that throws anything but a SnappyError is `backend-failed`. */
function encodePayload(
  codec: SnappyCodec,
  ssz: Uint8Array,
  options: EncodeSszSnappyOptions | undefined,
): Uint8Array {
  try {
    return encodeSszSnappy(codec, ssz, options);
  } catch (error) {
    throw codecFault(error, codec, "compress");
  }
}

/** Yields the request's bytes: its SSZ bytes as `ssz_snappy`. Write it with {@link writeToStream}. */
export async function* encodeRequest(
  ssz: Uint8Array,
  options: EncodeOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  const own = checkOptions(options, ENCODE_OPTIONS);
  yield encodePayload(codecOf(own), ssz, payloadOptions(own.maxPayloadSize));
}

/**
 * Reads a request from the stream: one `ssz_snappy` payload within `bounds`, and nothing
 * after it (the requester closes its side once written). On a fault the stream is left open
 * for writing, so the responder can answer with an `InvalidRequest` error chunk
 * ({@link writeToStream} then closes it).
 * @throws SnappyError for every fault of the payload (see `decodeSszSnappy`),
 *   `trailing-bytes` for bytes after it.
 */
export async function decodeRequest(
  source: ChunkSource,
  options: DecodeRequestOptions,
): Promise<Uint8Array> {
  const own = checkOptions(options, REQUEST_OPTIONS, "options");
  const codec = codecOf(own);
  const input = new Source(source, own.signal, false);
  try {
    return await decodeSszSnappy(
      codec,
      input.parts,
      sszBounds(own.bounds as SizeBounds, own.maxPayloadSize),
    );
  } finally {
    input.close(undefined);
  }
}

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function header(result: number, context: Uint8Array | undefined): Uint8Array {
  if (context === undefined) return Uint8Array.of(result);
  const out = new Uint8Array(1 + context.length);
  out[0] = result;
  out.set(context, 1);
  return out;
}

function checkErrorResult(result: unknown): number {
  if (
    !Number.isInteger(result) ||
    (!((result as number) >= 1 && (result as number) <= 3) &&
      !((result as number) >= 128 && (result as number) <= 255))
  ) {
    throw new SnappyError(
      "bad-argument",
      `an error chunk's result must be 1, 2, 3 or 128-255, got ${String(result)}`,
    );
  }
  return result as number;
}

/**
 * The bytes of one error response chunk: `<result>` then the `ErrorMessage` (`message` as
 * UTF-8, cut at 256 bytes) as `ssz_snappy`; context bytes are empty on an error.
 */
export function encodeErrorChunk(codec: SnappyCodec, chunk: ErrorChunk): Uint8Array[] {
  const result = checkErrorResult(chunk?.result);
  const text = new TextEncoder().encode(String(chunk.message ?? ""));
  const message = text.subarray(0, MAX_ERROR_MESSAGE_SIZE);
  return [Uint8Array.of(result), encodePayload(codec, message, undefined)];
}

/**
 * Yields a response's bytes for the chunks of `chunks`: for each success chunk `0`, its
 * context bytes (if any) and its SSZ bytes as `ssz_snappy`; an {@link ErrorChunk} ends the
 * response (the spec allows an error only as the last chunk). Stopping the iteration (the
 * stream closed) closes `chunks`.
 */
export async function* encodeResponse(
  chunks: AsyncIterable<ResponseChunk | ErrorChunk> | Iterable<ResponseChunk | ErrorChunk>,
  options: EncodeOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  const own = checkOptions(options, ENCODE_OPTIONS);
  const codec = codecOf(own);
  const settings = payloadOptions(own.maxPayloadSize);
  for await (const chunk of chunks) {
    if (chunk != null && "result" in chunk) {
      yield* encodeErrorChunk(codec, chunk);
      return;
    }
    const context = chunk?.context === undefined ? undefined : bytesOf(chunk.context, "context");
    const payload = encodePayload(codec, chunk?.ssz, settings);
    yield header(ResultCode.SUCCESS, context);
    yield payload;
  }
}

/**
 * Reads a response from the stream, yielding each success chunk (its SSZ bytes, and its
 * context bytes when `bounds` is a function). The response may end after any chunk.
 * Breaking out of the loop, an error, a limit or `signal` ends the stream: a libp2p stream
 * is aborted (its `abort()`; libp2p 3's iterator `return()` alone leaves it open), any other
 * source has its iterator's `return()` called.
 *
 * @throws ResponseError for an error chunk (result 1–3, 128–255), with its `ErrorMessage`.
 * @throws SnappyError `bad-result-code` (a reserved result, 4–127),
 *   `unknown-context-bytes` (`bounds` gave nothing for the digest), `too-many-chunks` (more
 *   than `maxChunks`), `truncated` (the stream ended inside a chunk), every `ssz_snappy`
 *   reason of the payload, and `length-over-limit` for an `ErrorMessage` over 256 bytes.
 */
export async function* decodeResponse(
  source: ChunkSource,
  options: DecodeResponseOptions,
): AsyncGenerator<ResponseChunk, void, undefined> {
  const own = checkOptions(options, RESPONSE_OPTIONS);
  const codec = codecOf(own);
  const bounds = own.bounds;
  if (bounds == null || (typeof bounds !== "function" && typeof bounds !== "object")) {
    throw new SnappyError(
      "bad-options",
      "options.bounds must be size bounds or a function of the fork digest",
    );
  }
  const maxChunks = own.maxChunks ?? Number.POSITIVE_INFINITY;
  if (
    !(maxChunks >= 0) ||
    (maxChunks !== Number.POSITIVE_INFINITY && !Number.isSafeInteger(maxChunks))
  ) {
    throw new SnappyError("bad-options", "options.maxChunks must be a non-negative integer");
  }
  const fixed = typeof bounds === "function" ? undefined : sszBounds(bounds, own.maxPayloadSize);
  const input = new Source(source, own.signal, true);
  const reader = new ByteReader(input.parts);
  let failure: unknown;
  try {
    for (let count = 0; ; count++) {
      const at = reader.position;
      const result = await reader.readByte();
      if (result === undefined) return;
      if (result !== ResultCode.SUCCESS) throw await readError(codec, reader, result, count, at);
      if (count >= maxChunks) {
        throw new SnappyError(
          "too-many-chunks",
          `response has more than the ${maxChunks} chunk(s) requested`,
          { at, limit: maxChunks },
        );
      }
      let context: Uint8Array | undefined;
      let chunkBounds = fixed;
      if (chunkBounds === undefined) {
        const digest = await reader.read(FORK_DIGEST_LENGTH);
        if (digest === undefined) {
          throw new SnappyError(
            "truncated",
            `response chunk ${count} ends inside its context bytes`,
            {
              at,
            },
          );
        }
        context = digest.slice();
        let found: SizeBounds | undefined;
        try {
          found = (bounds as (d: Uint8Array) => SizeBounds | undefined)(context);
        } catch (error) {
          throw callbackFault(error, `bounds(0x${hex(context)})`);
        }
        if (found === undefined) {
          throw new SnappyError(
            "unknown-context-bytes",
            `response chunk ${count} has unknown context bytes 0x${hex(context)}`,
            { at: at + 1 },
          );
        }
        chunkBounds = sszBounds(found, own.maxPayloadSize);
      }
      let ssz: Uint8Array;
      try {
        ssz = await readSszSnappy(codec, reader, chunkBounds);
      } catch (error) {
        throw error instanceof SnappyError
          ? withContext(error, `response chunk ${count} (at byte ${at})`)
          : error;
      }
      yield context === undefined ? { ssz } : { ssz, context };
    }
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    input.close(failure);
  }
}

async function readError(
  codec: SnappyCodec,
  reader: ByteReader,
  result: number,
  count: number,
  at: number,
): Promise<Error> {
  if (result > 3 && result < 128) {
    return new SnappyError(
      "bad-result-code",
      `response chunk ${count} has the reserved result code ${result}`,
      { at, actual: result },
    );
  }
  if (await reader.atEnd()) return new ResponseError(result, new Uint8Array(0));
  try {
    return new ResponseError(result, await readSszSnappy(codec, reader, ERROR_MESSAGE_BOUNDS));
  } catch (error) {
    if (!(error instanceof SnappyError)) throw error;
    return withContext(error, `error message of response chunk ${count} (result ${result})`);
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Where the codecs read from: a libp2p stream, or any (async) iterable of bytes. */
export type ChunkSource = AsyncIterable<ByteChunk> | Iterable<ByteChunk>;

/** A source that can be ended at once: a libp2p stream. */
interface Abortable {
  abort(error: Error): void;
}

const isAbortable = (source: unknown): source is Abortable =>
  typeof (source as Partial<Abortable>)?.abort === "function";

/**
 * The source's bytes as framing's `ByteReader` reads them, and the means to end the source
 * when the consumer stops early (an error, a break, `signal`, also while a read is pending):
 * a libp2p stream is aborted when `abortEarly`, else the iterator's `return()` is called.
 */
class Source {
  readonly parts: AsyncGenerator<ByteChunk, void, undefined>;
  readonly #source: ChunkSource;
  readonly #iterator: AsyncIterator<ByteChunk> | Iterator<ByteChunk>;
  readonly #signal: AbortSignal | undefined;
  readonly #aborted: Promise<never> | undefined;
  readonly #abortEarly: boolean;
  #onAbort: (() => void) | undefined;
  #ended = false;
  #closed = false;

  constructor(source: ChunkSource, signal: AbortSignal | undefined, abortEarly: boolean) {
    const iterable = source as Partial<AsyncIterable<Uint8Array> & Iterable<Uint8Array>>;
    const open = (iterable?.[Symbol.asyncIterator] ?? iterable?.[Symbol.iterator]) as
      | ((this: unknown) => Iterator<ByteChunk> | AsyncIterator<ByteChunk>)
      | undefined;
    if (typeof open !== "function") {
      throw new SnappyError(
        "bad-argument",
        "source must be an iterable or an async iterable of bytes",
      );
    }
    this.#source = source;
    this.#iterator = open.call(source);
    this.#signal = signal;
    this.#abortEarly = abortEarly;
    if (signal !== undefined) {
      this.#aborted = new Promise<never>((_, reject) => {
        this.#onAbort = () => {
          reject(abortReason(signal));
          this.close(abortReason(signal));
        };
      });
      this.#aborted.catch(() => {}); // observed by the read it interrupts, if any
      if (signal.aborted) this.#onAbort!();
      else signal.addEventListener("abort", this.#onAbort!, { once: true });
    }
    this.parts = this.#read();
  }

  // Items go to framing as they come: it reads a Uint8ArrayList's parts in place.
  async *#read(): AsyncGenerator<ByteChunk, void, undefined> {
    for (;;) {
      if (this.#signal?.aborted) throw abortReason(this.#signal);
      const pending = this.#iterator.next();
      const next = this.#aborted ? await Promise.race([pending, this.#aborted]) : await pending;
      if (next.done) {
        this.#ended = true;
        return;
      }
      yield next.value;
    }
  }

  /** Stop reading; `error` is why, if the reader failed. */
  close(error: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#onAbort !== undefined) this.#signal!.removeEventListener("abort", this.#onAbort);
    if (this.#ended) return;
    if (this.#abortEarly && isAbortable(this.#source)) {
      this.#source.abort(
        error instanceof Error ? error : new Error("stopped reading before the response ended"),
      );
      return;
    }
    // Not awaited: a source blocked in next() finishes its return() when it can.
    const done = this.#iterator.return?.();
    if (done instanceof Promise) done.catch(() => {});
  }
}

/** What {@link writeToStream} writes to: a libp2p 3 stream's writing side. */
export interface WritableByteStream {
  send(data: Uint8Array): boolean;
  onDrain(options?: { signal?: AbortSignal }): Promise<void>;
  close(options?: { signal?: AbortSignal }): Promise<void>;
  abort(error: Error): void;
}

/**
 * Writes `chunks` ({@link encodeRequest} or {@link encodeResponse}) to a libp2p 3 stream,
 * waiting for the stream to drain whenever `send()` says its buffer is full, then closes the
 * stream's writing side. On any failure (the chunks' source, the stream, `signal`) the stream
 * is aborted and the error rethrown.
 */
export async function writeToStream(
  stream: WritableByteStream,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options?: { signal?: AbortSignal },
): Promise<void> {
  const signal = checkOptions(options, ["signal"]).signal;
  const settings = signal === undefined ? undefined : { signal };
  try {
    for await (const chunk of chunks) {
      signal?.throwIfAborted();
      if (!stream.send(chunk)) await stream.onDrain(settings);
    }
    await stream.close(settings);
  } catch (error) {
    stream.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

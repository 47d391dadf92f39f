import { type SnappyCodec, SnappyError } from "@snappykit/core";
import { type DecodeFramedOptions, FrameDecoder } from "./decode.js";
import { type EncodeFramedOptions, FrameEncoder } from "./encode.js";
import { type ByteChunk, partsOf } from "./parts.js";

/**
 * Where streaming functions read bytes from: any (async) iterable of byte chunks, or a Web
 * `ReadableStream` of them. A chunk is a `Uint8Array` or a list of `Uint8Array` parts (a
 * `Uint8ArrayList`, as libp2p streams yield), read in place.
 */
export type ByteSource = AsyncIterable<ByteChunk> | Iterable<ByteChunk> | ReadableStream<ByteChunk>;

function isReadableStream(source: unknown): source is ReadableStream<ByteChunk> {
  return typeof (source as ReadableStream | null)?.getReader === "function";
}

/** Throw `INVALID_ARGUMENT` unless `source` is a {@link ByteSource}. */
export function assertByteSource(source: unknown): asserts source is ByteSource {
  if (
    !isReadableStream(source) &&
    !(
      source != null &&
      (Symbol.asyncIterator in Object(source) || Symbol.iterator in Object(source))
    )
  ) {
    throw new SnappyError(
      "bad-argument",
      "source must be an iterable, an async iterable or a ReadableStream of Uint8Array (or Uint8ArrayList)",
    );
  }
}

const ignore = () => {};

/**
 * The source's bytes as plain `Uint8Array` parts. Whenever the consumer stops before the end
 * (a `break`, an error in what it does with the bytes, a `SnappyError` here), the source is
 * told: a `ReadableStream` is cancelled and its lock released, an iterator's `return()` runs
 * (`for await` does that). A `ReadableStream` is read through its reader, since not every
 * runtime makes it async-iterable.
 */
async function* partsFrom(source: ByteSource): AsyncGenerator<Uint8Array, void, undefined> {
  assertByteSource(source);
  if (!isReadableStream(source)) {
    for await (const chunk of source) yield* partsOf(chunk, "source item");
    return;
  }
  const reader = source.getReader();
  let finished = false;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        finished = true; // the stream errored itself: nothing left to cancel
        throw error;
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield* partsOf(next.value, "source item");
    }
  } finally {
    // The consumer's own error (or its break) is what it sees; a failing cancel cannot add to it.
    if (!finished) await reader.cancel().catch(ignore);
    reader.releaseLock();
  }
}

/** What {@link FrameEncoder} and {@link FrameDecoder} share: bytes in, pieces out, then an end. */
interface Transcoder {
  write(bytes: ByteChunk): Iterable<Uint8Array>;
  /** The last pieces (the encoder's), or nothing (the decoder only checks for truncation). */
  // biome-ignore lint/suspicious/noConfusingVoidType: FrameDecoder.end() is declared void
  end(): Iterable<Uint8Array> | void;
}

/**
 * Bytes a stream produces between turns of the event loop. A source that is always
 * ready (in memory, or faster than the codec) otherwise runs the whole stream on promise
 * jobs alone, and the finalizers that free native backends' output (Node-API external
 * buffers: napi-v1, napi-wasi) never run: resident memory grew with the stream's length.
 */
const YIELD_EVERY = 4 << 20;
const schedule =
  (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate ??
  ((run: () => void) => setTimeout(run, 0));
const nextTurn = () => new Promise<void>((resolve) => schedule(resolve));

// Created on the first pull, as a generator's body runs: bad options reject the iteration.
async function* transcode(
  create: () => Transcoder,
  source: ByteSource,
): AsyncGenerator<Uint8Array, void, undefined> {
  const transcoder = create();
  let since = 0;
  for await (const part of partsFrom(source)) {
    for (const out of transcoder.write(part)) {
      since += out.length;
      yield out;
    }
    if (since >= YIELD_EVERY) {
      since = 0;
      await nextTurn();
    }
  }
  yield* transcoder.end() ?? [];
}

function transformStream(transcoder: Transcoder): TransformStream<ByteChunk, Uint8Array> {
  let since = 0;
  return new TransformStream({
    transform(piece, controller) {
      for (const out of transcoder.write(piece)) {
        since += out.length;
        controller.enqueue(out);
      }
      if (since < YIELD_EVERY) return;
      since = 0;
      return nextTurn();
    },
    flush(controller) {
      for (const out of transcoder.end() ?? []) controller.enqueue(out);
    },
  });
}

/**
 * Encode a byte stream as a Snappy framed stream, chunk by chunk: memory stays at one chunk
 * (`chunkSize`) whatever the input size.
 *
 * @example
 * for await (const piece of encodeFramedStream(codec, fs.createReadStream(path))) out.write(piece);
 */
export function encodeFramedStream(
  codec: SnappyCodec,
  source: ByteSource,
  options?: EncodeFramedOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  return transcode(() => new FrameEncoder(codec, options), source);
}

/**
 * Decode a Snappy framed stream arriving in arbitrary slices; yields each data chunk's bytes.
 * Memory stays at one chunk (as {@link FrameDecoder}) whatever the stream size; `maxLength`
 * (unlimited by default here) caps the total.
 */
export function decodeFramedStream(
  codec: SnappyCodec,
  source: ByteSource,
  options?: DecodeFramedOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  return transcode(() => new FrameDecoder(codec, options), source);
}

/** A Web Streams `TransformStream` that frames the bytes written to it. */
export function createFrameEncoderStream(
  codec: SnappyCodec,
  options?: EncodeFramedOptions,
): TransformStream<ByteChunk, Uint8Array> {
  return transformStream(new FrameEncoder(codec, options));
}

/**
 * A Web Streams `TransformStream` that decodes a framed stream; errors its readable side with
 * the `SnappyError` on bad input, including a stream that ends inside a chunk.
 */
export function createFrameDecoderStream(
  codec: SnappyCodec,
  options?: DecodeFramedOptions,
): TransformStream<ByteChunk, Uint8Array> {
  return transformStream(new FrameDecoder(codec, options));
}

const EMPTY = new Uint8Array(0);

/** What a protocol's reader (`ssz_snappy`'s) reads with, past the public methods' copies. */
export interface ReaderInternals {
  /** Exactly `n` bytes, as a view into the source's part when it holds them all. */
  view(reader: ByteReader, n: number): Promise<Uint8Array | undefined>;
  /** Consume `n` bytes without keeping them; false if the source ends first. */
  skip(reader: ByteReader, n: number): Promise<boolean>;
  /** Consume `out.length` bytes into `out`; false if the source ends first. */
  readInto(reader: ByteReader, out: Uint8Array): Promise<boolean>;
}

/** {@link ReaderInternals} of every ByteReader: exported by `@snappykit/framing/chunks`. */
export let readerInternals: ReaderInternals;

/**
 * Pull-based reader over a {@link ByteSource} for protocols that read exact byte counts and
 * leave the rest for the next message (as req/resp does with a stream of response chunks).
 * Holds only the source's current part; pulls the next one only when asked for a byte beyond
 * it. Every array it returns is the caller's own (a plain `Uint8Array` at offset 0 over memory
 * nothing else refers to). Reads are sequential: await each before the next.
 */
export class ByteReader {
  readonly #parts: AsyncGenerator<Uint8Array, void, undefined>;
  #current: Uint8Array = EMPTY;
  #pos = 0;
  #done = false;
  #position = 0;

  static {
    readerInternals = {
      view: (reader, n) => reader.#take(n, false),
      skip: (reader, n) => reader.#consume(n, null),
      readInto: (reader, out) => reader.#consume(out.length, out),
    };
  }

  constructor(source: ByteSource) {
    assertByteSource(source);
    this.#parts = partsFrom(source);
  }

  /** Bytes consumed so far. */
  get position(): number {
    return this.#position;
  }

  async #fill(): Promise<boolean> {
    while (this.#pos >= this.#current.length) {
      if (this.#done) return false;
      const next = await this.#parts.next();
      if (next.done) {
        this.#done = true;
        return false;
      }
      this.#current = next.value;
      this.#pos = 0;
    }
    return true;
  }

  /** True when the source has no more bytes (pulls the next part if the current one is used up). */
  async atEnd(): Promise<boolean> {
    return !(await this.#fill());
  }

  /** The next byte without consuming it, or `undefined` at the end. */
  async peekByte(): Promise<number | undefined> {
    return (await this.#fill()) ? this.#current[this.#pos] : undefined;
  }

  /** The next byte, or `undefined` at the end. */
  async readByte(): Promise<number | undefined> {
    if (!(await this.#fill())) return undefined;
    this.#position++;
    return this.#current[this.#pos++];
  }

  /**
   * Exactly `n` bytes as a new array the caller owns, or `undefined` if the source ends first
   * (having consumed what it had). Allocates `n` bytes: bound `n` before calling.
   */
  read(n: number): Promise<Uint8Array | undefined> {
    return this.#take(n, true);
  }

  /**
   * Stop reading: a `ReadableStream` source is cancelled and its lock released, an iterator's
   * `return()` is called (a source never read from is left as it was). Later reads see the
   * end. Call it when abandoning a reader before its source ends (an abort, a bad message);
   * `decodeSszSnappy` (@snappykit/p2p) does for the reader it makes.
   */
  async cancel(): Promise<void> {
    this.#done = true;
    this.#current = EMPTY;
    this.#pos = 0;
    await this.#parts.return(undefined);
  }

  async #take(n: number, own: boolean): Promise<Uint8Array | undefined> {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new SnappyError("bad-argument", `read length must be a non-negative integer, got ${n}`);
    }
    if (n === 0) return own ? new Uint8Array(0) : EMPTY;
    if (!(await this.#fill())) return undefined;
    if (this.#current.length - this.#pos >= n) {
      const start = this.#pos;
      this.#pos += n;
      this.#position += n;
      // `slice` of the plain Uint8Array partsOf made: a copy over memory of its own.
      return own ? this.#current.slice(start, start + n) : this.#current.subarray(start, start + n);
    }
    const out = new Uint8Array(n);
    return (await this.#consume(n, out)) ? out : undefined;
  }

  /** Consume `n` bytes across parts, copied into `out` if given; false if the source ends first. */
  async #consume(n: number, out: Uint8Array | null): Promise<boolean> {
    for (let done = 0; done < n; ) {
      if (!(await this.#fill())) return false;
      const take = Math.min(n - done, this.#current.length - this.#pos);
      out?.set(this.#current.subarray(this.#pos, this.#pos + take), done);
      done += take;
      this.#pos += take;
      this.#position += take;
    }
    return true;
  }
}

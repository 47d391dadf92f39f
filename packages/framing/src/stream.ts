import { bytesOf, type SnappyCodec, SnappyError } from "@snappykit/core";
import { type DecodeFramedOptions, FrameDecoder } from "./decode.js";
import { type EncodeFramedOptions, FrameEncoder } from "./encode.js";

/** Where streaming functions read bytes from: any (async) iterable of byte arrays, or a Web `ReadableStream`. */
export type ByteSource =
  | AsyncIterable<Uint8Array>
  | Iterable<Uint8Array>
  | ReadableStream<Uint8Array>;

function isReadableStream(source: unknown): source is ReadableStream<Uint8Array> {
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
      "source must be an iterable, an async iterable or a ReadableStream of Uint8Array",
    );
  }
}

// Read a ReadableStream through its reader: not every runtime makes it async-iterable.
async function* iterate(source: ByteSource): AsyncGenerator<Uint8Array, void, undefined> {
  assertByteSource(source);
  if (isReadableStream(source)) {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    yield* source;
  }
}

/** What {@link FrameEncoder} and {@link FrameDecoder} share: bytes in, pieces out, then an end. */
interface Transcoder {
  write(bytes: Uint8Array): Iterable<Uint8Array>;
  /** The last pieces (the encoder's), or nothing (the decoder only checks for truncation). */
  // biome-ignore lint/suspicious/noConfusingVoidType: FrameDecoder.end() is declared void
  end(): Iterable<Uint8Array> | void;
}

// Created on the first pull, as a generator's body runs: bad options reject the iteration.
async function* transcode(
  create: () => Transcoder,
  source: ByteSource,
): AsyncGenerator<Uint8Array, void, undefined> {
  const transcoder = create();
  for await (const piece of iterate(source)) yield* transcoder.write(piece);
  yield* transcoder.end() ?? [];
}

function transformStream(transcoder: Transcoder): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform(piece, controller) {
      for (const out of transcoder.write(piece)) controller.enqueue(out);
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
 * Memory stays at one chunk (≤ 76,498 bytes) whatever the stream size; `maxLength` (unlimited
 * by default here) caps the total.
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
): TransformStream<Uint8Array, Uint8Array> {
  return transformStream(new FrameEncoder(codec, options));
}

/**
 * A Web Streams `TransformStream` that decodes a framed stream; errors its readable side with
 * the `SnappyError` on bad input, including a stream that ends inside a chunk.
 */
export function createFrameDecoderStream(
  codec: SnappyCodec,
  options?: DecodeFramedOptions,
): TransformStream<Uint8Array, Uint8Array> {
  return transformStream(new FrameDecoder(codec, options));
}

const EMPTY = new Uint8Array(0);

/**
 * Pull-based reader over a {@link ByteSource} for protocols that read exact byte counts and
 * leave the rest for the next message (as req/resp does with a stream of response chunks).
 * Holds only the source's current slice.
 */
export class ByteReader {
  readonly #iterator: AsyncIterator<Uint8Array>;
  #current: Uint8Array = EMPTY;
  #pos = 0;
  #done = false;
  #position = 0;

  constructor(source: ByteSource) {
    assertByteSource(source);
    this.#iterator = iterate(source);
  }

  /** Bytes consumed so far. */
  get position(): number {
    return this.#position;
  }

  async #fill(): Promise<boolean> {
    while (this.#pos >= this.#current.length) {
      if (this.#done) return false;
      const next = await this.#iterator.next();
      if (next.done) {
        this.#done = true;
        return false;
      }
      this.#current = bytesOf(next.value, "source item");
      this.#pos = 0;
    }
    return true;
  }

  /** True when the source has no more bytes. */
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
   * Exactly `n` bytes, or `undefined` if the source ends first (having consumed what it had).
   * A view into the source's slice when it holds them all, else a copy.
   */
  async read(n: number): Promise<Uint8Array | undefined> {
    if (n === 0) return EMPTY;
    if (!(await this.#fill())) return undefined;
    if (this.#current.length - this.#pos >= n) {
      const out = this.#current.subarray(this.#pos, this.#pos + n);
      this.#pos += n;
      this.#position += n;
      return out;
    }
    const out = new Uint8Array(n);
    let fill = 0;
    while (fill < n) {
      if (!(await this.#fill())) return undefined;
      const take = Math.min(n - fill, this.#current.length - this.#pos);
      out.set(this.#current.subarray(this.#pos, this.#pos + take), fill);
      fill += take;
      this.#pos += take;
      this.#position += take;
    }
    return out;
  }
}

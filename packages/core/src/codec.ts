/** Where a codec's work runs: a native addon, a WebAssembly module, or plain JavaScript. */
export type CodecRuntime = "native" | "wasm" | "js";

/** Options for {@link SnappyCodec.uncompress}. */
export interface UncompressOptions {
  /**
   * Reject, before allocating, input whose declared length exceeds this many bytes.
   * @default DEFAULT_MAX_LENGTH (256 MiB)
   */
  maxLength?: number;
}

/**
 * The contract every snappykit adapter implements: Snappy's raw (block) format, the one
 * Ethereum gossip uses, in and out of plain `Uint8Array`s.
 *
 * Implementations must throw {@link SnappyError} for every malformed, truncated or hostile
 * input, never return wrong bytes, and check the declared length before allocating it.
 *
 * Every array a codec returns is a plain `Uint8Array` (never a Node `Buffer`, whose
 * `toString()` and `slice()` behave differently) that owns its memory: its `byteOffset` is 0
 * and its `buffer` holds exactly its bytes, so transferring that buffer to a worker never
 * affects another result and never exposes unrelated bytes.
 */
export interface SnappyCodec {
  /** Bumped only when this interface changes incompatibly. */
  readonly contractVersion: 1;
  /** Short stable id used in reports and CLI filters: "napi", "snappyjs", ... */
  readonly name: string;
  /** The backend package and version actually loaded, e.g. "snappy@7.4.3". */
  readonly library: string;
  /** Where the backend's work runs. */
  readonly runtime: CodecRuntime;
  /** Compress `input` to the Snappy raw format. */
  compress(input: Uint8Array): Uint8Array;
  /**
   * Decompress a Snappy raw stream.
   * @throws SnappyError `CORRUPT_INPUT` for invalid input, `LENGTH_LIMIT` over `maxLength`.
   */
  uncompress(input: Uint8Array, options?: UncompressOptions): Uint8Array;
  /**
   * Present only when the backend can compress off the main thread (a thread pool);
   * same bytes as {@link SnappyCodec.compress}. The result is computed from `input`'s bytes
   * as they are when the call is made: once it returns (before the promise settles) the
   * caller may overwrite, reuse or transfer `input`'s buffer.
   */
  readonly compressAsync?: (input: Uint8Array) => Promise<Uint8Array>;
  /**
   * Present only when the backend can decompress off the main thread; same checks and
   * result as {@link SnappyCodec.uncompress}, computed from `input` as it is at call time
   * (see {@link SnappyCodec.compressAsync}).
   */
  readonly uncompressAsync?: (
    input: Uint8Array,
    options?: UncompressOptions,
  ) => Promise<Uint8Array>;

  // For callers that bring their own memory: the shape Ethereum clients use on the gossip
  // path (read the declared length, check it against the message type's bounds, decode into
  // a reused buffer). Every codec has the two lengths; the `*Into` members are optional: a
  // codec declares only what its backend really does, writing straight into the caller's
  // array, never into a hidden buffer that is then copied.

  /**
   * The uncompressed length `input` declares in its preamble, validated as
   * {@link SnappyCodec.uncompress} validates it before allocating: a well-formed varint,
   * no more than `maxLength`, and no more than the body could ever expand to. Reads the
   * preamble only; the body may still be corrupt (`uncompress`/`uncompressInto` say so).
   * Every codec has it (`guardedCodec` builds it from the format).
   * @throws SnappyError `CORRUPT_INPUT` for a bad preamble or a decompression bomb,
   *   `LENGTH_LIMIT` over `maxLength`, `INVALID_ARGUMENT` for a non-`Uint8Array`.
   */
  readonly uncompressedLength: (input: Uint8Array, options?: UncompressOptions) => number;
  /**
   * The output length {@link SnappyCodec.compressInto} needs for `length` input bytes: at
   * least the compressed size of every input of that length. For most codecs the format's
   * bound `32 + n + floor(n / 6)` (core's `maxCompressedLength`); a backend may need a
   * little more. Every codec has it, whether or not it has `compressInto`.
   * @throws SnappyError `INVALID_ARGUMENT` unless `length` is an integer in 0..2^32-1.
   */
  readonly maxCompressedLength: (length: number) => number;
  /**
   * Compress `input` into the caller's `output`, starting at `output[0]`, and return the
   * number of bytes written. The bytes are exactly those {@link SnappyCodec.compress}
   * returns; nothing at or past the returned length is touched.
   * @throws SnappyError `OUTPUT_TOO_SMALL` (before writing anything) when `output.length` is
   *   under `maxCompressedLength(input.length)`, even if this input would have fit;
   *   `INVALID_ARGUMENT` for a non-`Uint8Array`. An `output` overlapping `input` is either
   *   refused (`INVALID_ARGUMENT`, nothing written) or written exactly as for a copy of `input`.
   */
  readonly compressInto?: (input: Uint8Array, output: Uint8Array) => number;
  /**
   * Decompress `input` into the caller's `output`, starting at `output[0]`, and return the
   * number of bytes written: the declared length (see
   * {@link SnappyCodec.uncompressedLength}). The same checks as
   * {@link SnappyCodec.uncompress}; nothing at or past the declared length is ever touched.
   * When the stream turns out corrupt, `output[0..declared)` may hold partial output: the
   * error, not the buffer, is the result.
   * @throws SnappyError `OUTPUT_TOO_SMALL` (before writing anything) when `output` is shorter
   *   than the declared length, `CORRUPT_INPUT`, `LENGTH_LIMIT`, and `INVALID_ARGUMENT` for a
   *   non-`Uint8Array`. An `output` overlapping `input` is either refused (`INVALID_ARGUMENT`,
   *   nothing written) or decoded exactly as from a copy of `input`.
   */
  readonly uncompressInto?: (
    input: Uint8Array,
    output: Uint8Array,
    options?: UncompressOptions,
  ) => number;
}

/**
 * A backend library called directly, with only the conversions it cannot work without
 * and none of the adapter's guards. Adapters export it (as `createRaw`) from their `./raw`
 * entry, not the main one, so the bench can show what the adapter costs and the fuzzer what
 * its guards prevent. Never use it on untrusted input.
 */
export interface RawBackend {
  /** The backend package and version, as in {@link SnappyCodec.library}. */
  readonly library: string;
  compress(input: Uint8Array): Uint8Array;
  uncompress(input: Uint8Array): Uint8Array;
  /**
   * The library's own off-thread calls, where it has them: no guard and no copy of the
   * input, so the bench shows what the codec's async contract costs.
   */
  compressAsync?(input: Uint8Array): Promise<Uint8Array>;
  uncompressAsync?(input: Uint8Array): Promise<Uint8Array>;
}

/** The shape of an adapter package's main entry. */
export interface AdapterModule {
  createCodec(): Promise<SnappyCodec>;
  /**
   * Optional: the same backend with other settings than `createCodec`'s defaults (each
   * with its own `name`), which the bench reports as rows of their own.
   */
  createVariants?(): Promise<SnappyCodec[]>;
}

/** The shape of an adapter package's `./raw` entry, which the bench and the fuzzer import. */
export interface RawModule {
  createRaw(): Promise<RawBackend>;
}

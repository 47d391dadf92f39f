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
   * same bytes as {@link SnappyCodec.compress}.
   */
  readonly compressAsync?: (input: Uint8Array) => Promise<Uint8Array>;
  /**
   * Present only when the backend can decompress off the main thread; same checks and
   * result as {@link SnappyCodec.uncompress}.
   */
  readonly uncompressAsync?: (
    input: Uint8Array,
    options?: UncompressOptions,
  ) => Promise<Uint8Array>;
}

/**
 * A backend library called directly, with only the conversions it cannot work without
 * and none of the adapter's guards. Adapters export it (as `createRaw`) so the bench can
 * show what the adapter costs and the fuzzer what its guards prevent. Never use it on
 * untrusted input.
 */
export interface RawBackend {
  /** The backend package and version, as in {@link SnappyCodec.library}. */
  readonly library: string;
  compress(input: Uint8Array): Uint8Array;
  uncompress(input: Uint8Array): Uint8Array;
}

/** The shape of an adapter package's module: what the bench and the fuzzer import. */
export interface AdapterModule {
  createCodec(): Promise<SnappyCodec>;
  createRaw(): Promise<RawBackend>;
  /**
   * Optional: the same backend with other settings than `createCodec`'s defaults (each
   * with its own `name`), which the bench reports as rows of their own.
   */
  createVariants?(): Promise<SnappyCodec[]>;
}

import type { CodecRuntime, SnappyCodec, UncompressOptions } from "./codec.js";
import { SnappyError, toSnappyError } from "./errors.js";
import {
  assertBytes,
  assertOutputLength,
  checkUncompressedLength,
  maxCompressedLength,
} from "./limits.js";
import { assertOutputSpace, ownedBytes, retypedBytes } from "./output.js";
import { validateCompressed } from "./validate.js";

/**
 * What an adapter knows about its backend. {@link guardedCodec} turns it into a
 * {@link SnappyCodec} with the contract's checks, so adapters hold only what differs:
 * loading, conversions at the edge, and which guard the backend needs.
 */
export interface BackendSpec {
  readonly name: string;
  /** `name@version` of the backend package actually loaded. */
  readonly library: string;
  readonly runtime: CodecRuntime;
  /**
   * What must be checked before the backend sees compressed input:
   * - `"length"`: the backend rejects every bad stream itself but allocates the declared
   *   length first, so {@link checkUncompressedLength} (maxLength and the expansion bound);
   * - `"stream"`: the backend trusts its input (zero-fills, reads stale memory, hangs), so
   *   {@link validateCompressed} proves the whole stream valid first.
   */
  readonly guard: "length" | "stream";
  /**
   * Every result is a buffer the library allocated for that call alone, exactly as long as
   * the result (no pool, no reused scratch), so the codec only retypes it
   * ({@link retypedBytes}) instead of checking ownership ({@link ownedBytes}). A wrong
   * claim fails the conformance ownership checks.
   */
  readonly freshOutput?: boolean;
  compress(input: Uint8Array): Uint8Array;
  /** Decode a stream that passed the guard; `length` is the length it declares. */
  uncompress(input: Uint8Array, length: number): Uint8Array;
  /**
   * The backend's async calls read `input` on another thread after they have returned (a
   * thread pool handed a pointer to the caller's memory): a caller that reuses or transfers
   * its buffer meanwhile gets wrong bytes, an error, or a crash. Declared, the codec hands
   * them a copy taken at call time, as the contract promises. The conformance async
   * lifetime checks prove each declaration.
   */
  readonly asyncBorrowsInput?: boolean;
  /** Present when the backend can compress off the main thread. */
  compressAsync?(input: Uint8Array): Promise<Uint8Array>;
  /** Present when the backend can decompress off the main thread. */
  uncompressAsync?(input: Uint8Array, length: number): Promise<Uint8Array>;
  /**
   * Present when the backend needs more output room than the format's
   * `maxCompressedLength` for `compressInto`; the codec declares the larger of the two.
   */
  maxCompressedLength?(length: number): number;
  /**
   * Present only when the backend itself writes into a caller's array (never a copy from
   * its own buffer). `output` has at least `maxCompressedLength(input.length)` bytes;
   * returns how many it wrote.
   */
  compressInto?(input: Uint8Array, output: Uint8Array): number;
  /**
   * Present only when the backend itself decodes into a caller's array. Called after the
   * guard, with `output` exactly the declared length long (so the backend cannot write past
   * it); returns how many bytes it wrote.
   */
  uncompressInto?(input: Uint8Array, output: Uint8Array): number;
}

/** A copy of `input` on a buffer of its own, which nothing else can reuse or transfer. */
const snapshot = (input: Uint8Array): Uint8Array => new Uint8Array(input);

/**
 * Wrap a {@link BackendSpec} in the contract: arguments checked, the backend's guard run
 * before it sees compressed input, its output length checked against the preamble, its
 * results made plain `Uint8Array`s that own their memory ({@link ownedBytes}), and anything
 * it throws turned into a {@link SnappyError} (`BACKEND_ERROR` from compress,
 * `CORRUPT_INPUT` from uncompress unless the backend threw a `SnappyError` itself).
 *
 * Every codec gets `uncompressedLength` and `maxCompressedLength` (functions of the format);
 * `compressInto`/`uncompressInto` only when the backend has them.
 */
export function guardedCodec(backend: BackendSpec): SnappyCodec {
  const { library } = backend;
  const compressFailed = `${library} failed to compress`;
  const rejected = `${library} rejected the stream`;
  const guard =
    backend.guard === "stream"
      ? validateCompressed
      : (input: Uint8Array, options?: UncompressOptions) =>
          checkUncompressedLength(input, options).length;
  const own = backend.freshOutput ? retypedBytes : ownedBytes;
  const forLater = backend.asyncBorrowsInput ? snapshot : (input: Uint8Array) => input;

  const compress = (input: Uint8Array): Uint8Array => {
    assertBytes(input);
    try {
      return own(backend.compress(input));
    } catch (error) {
      throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
    }
  };
  const uncompress = (input: Uint8Array, options?: UncompressOptions): Uint8Array => {
    const length = guard(input, options);
    let output: Uint8Array;
    try {
      output = backend.uncompress(input, length);
    } catch (error) {
      throw toSnappyError(error, rejected);
    }
    assertOutputLength(output, length, library);
    return own(output);
  };
  const ownBound = backend.maxCompressedLength?.bind(backend);
  const bound = ownBound
    ? (length: number) => Math.max(maxCompressedLength(length), ownBound(length))
    : maxCompressedLength;
  const codec: SnappyCodec = {
    contractVersion: 1,
    name: backend.name,
    library,
    runtime: backend.runtime,
    compress,
    uncompress,
    uncompressedLength: (input, options) => checkUncompressedLength(input, options).length,
    maxCompressedLength: bound,
  };

  const { compressAsync, uncompressAsync, compressInto, uncompressInto } = backend;
  return {
    ...codec,
    ...(compressAsync && {
      async compressAsync(input: Uint8Array) {
        assertBytes(input);
        try {
          return own(await compressAsync(forLater(input)));
        } catch (error) {
          throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
        }
      },
    }),
    ...(uncompressAsync && {
      async uncompressAsync(input: Uint8Array, options?: UncompressOptions) {
        const length = guard(input, options);
        let output: Uint8Array;
        try {
          output = await uncompressAsync(forLater(input), length);
        } catch (error) {
          throw toSnappyError(error, rejected);
        }
        assertOutputLength(output, length, library);
        return own(output);
      },
    }),
    ...(compressInto && {
      compressInto(input: Uint8Array, output: Uint8Array) {
        assertBytes(input);
        assertOutputSpace(input, output, bound(input.length));
        let written: number;
        try {
          written = compressInto(input, output);
        } catch (error) {
          throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
        }
        if (!Number.isInteger(written) || written < 0 || written > output.length) {
          throw new SnappyError("BACKEND_ERROR", `${library} reported writing ${written} bytes`);
        }
        return written;
      },
    }),
    ...(uncompressInto && {
      uncompressInto(input: Uint8Array, output: Uint8Array, options?: UncompressOptions) {
        const length = guard(input, options);
        assertOutputSpace(input, output, length);
        let written: number;
        try {
          written = uncompressInto(
            input,
            output.length === length ? output : output.subarray(0, length),
          );
        } catch (error) {
          throw toSnappyError(error, rejected);
        }
        if (written !== length) {
          throw new SnappyError(
            "CORRUPT_INPUT",
            `${library} produced ${written} bytes, but the stream declares ${length}`,
          );
        }
        return written;
      },
    }),
  };
}

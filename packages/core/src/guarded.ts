import { bytesOf } from "./bytes.js";
import type { CodecRuntime, SnappyCodec, UncompressOptions } from "./codec.js";
import { SnappyError, toSnappyError, withContext } from "./errors.js";
import {
  assertOutputLength,
  type CheckedInput,
  checkUncompressedLength,
  maxCompressedLength,
} from "./limits.js";
import { outputSpace, ownedBytes, retypedBytes } from "./output.js";
import { shortestLiterals, validateBody } from "./validate.js";

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
 * `CORRUPT_INPUT` from uncompress unless the backend threw a `SnappyError` itself). A
 * stream the backend rejects but core proves valid is decoded once more with its literal
 * lengths in their shortest form ({@link shortestLiterals}), so a backend that reads only
 * encoders' forms still decodes every legal one.
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
      ? (input: Uint8Array, options?: UncompressOptions) => {
          const checked = checkUncompressedLength(input, options);
          validateBody(checked);
          return checked;
        }
      : checkUncompressedLength;
  const own = backend.freshOutput ? retypedBytes : ownedBytes;
  const forLater = backend.asyncBorrowsInput ? snapshot : (input: Uint8Array) => input;
  /**
   * The stream to try again after the backend threw on one that passed the guard, or the
   * error to throw. A stream core's walk finds
   * invalid throws its precise error (after a length guard; the walk runs only on this
   * failure path). A valid one comes back with its literals in their shortest form, for one
   * more try (a backend may reject a legal longer form); when there is none, or the backend
   * rejects that too, the stream is valid and the backend's error stays `backend-rejected`.
   */
  const retryable = (error: unknown, checked: CheckedInput): Uint8Array => {
    if (error instanceof SnappyError) throw error;
    if (backend.guard === "length") {
      try {
        validateBody(checked);
      } catch (precise) {
        if (precise instanceof SnappyError) throw withContext(precise, rejected, { cause: error });
      }
    }
    const rewritten = shortestLiterals(checked);
    if (!rewritten) throw toSnappyError(error, rejected);
    return rewritten;
  };
  /** `decode` on the checked stream, retried once on its shortest-literal form. */
  const decodeValid = <T>(checked: CheckedInput, decode: (bytes: Uint8Array) => T): T => {
    try {
      return decode(checked.bytes);
    } catch (error) {
      const rewritten = retryable(error, checked);
      try {
        return decode(rewritten);
      } catch (again) {
        throw toSnappyError(again, rejected);
      }
    }
  };
  const decodeValidAsync = async <T>(
    checked: CheckedInput,
    decode: (bytes: Uint8Array) => Promise<T>,
  ): Promise<T> => {
    try {
      return await decode(checked.bytes);
    } catch (error) {
      const rewritten = retryable(error, checked);
      try {
        return await decode(rewritten);
      } catch (again) {
        throw toSnappyError(again, rejected);
      }
    }
  };

  const compress = (input: Uint8Array): Uint8Array => {
    const bytes = bytesOf(input);
    try {
      return own(backend.compress(bytes));
    } catch (error) {
      throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
    }
  };
  const uncompress = (input: Uint8Array, options?: UncompressOptions): Uint8Array => {
    const checked = guard(input, options);
    const output = decodeValid(checked, (bytes) => backend.uncompress(bytes, checked.length));
    assertOutputLength(output, checked.length, library);
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
        const bytes = bytesOf(input);
        try {
          return own(await compressAsync(forLater(bytes)));
        } catch (error) {
          throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
        }
      },
    }),
    ...(uncompressAsync && {
      async uncompressAsync(input: Uint8Array, options?: UncompressOptions) {
        const checked = guard(input, options);
        const output = await decodeValidAsync(checked, (bytes) =>
          uncompressAsync(forLater(bytes), checked.length),
        );
        assertOutputLength(output, checked.length, library);
        return own(output);
      },
    }),
    ...(compressInto && {
      compressInto(input: Uint8Array, given: Uint8Array) {
        const bytes = bytesOf(input);
        const output = outputSpace(bytes, given, bound(bytes.length));
        let written: number;
        try {
          written = compressInto(bytes, output);
        } catch (error) {
          throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
        }
        if (!Number.isInteger(written) || written < 0 || written > output.length) {
          throw new SnappyError("backend-failed", `${library} reported writing ${written} bytes`, {
            actual: written,
          });
        }
        return written;
      },
    }),
    ...(uncompressInto && {
      uncompressInto(input: Uint8Array, given: Uint8Array, options?: UncompressOptions) {
        const checked = guard(input, options);
        const { length } = checked;
        const output = outputSpace(checked.bytes, given, length);
        const exact = output.length === length ? output : output.subarray(0, length);
        const written = decodeValid(checked, (bytes) => uncompressInto(bytes, exact));
        if (written !== length) {
          throw new SnappyError(
            "backend-rejected",
            `${library} produced ${written} bytes, but the stream declares ${length}`,
            { declared: length, produced: written },
          );
        }
        return written;
      },
    }),
  };
}

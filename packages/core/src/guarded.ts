import type { CodecRuntime, SnappyCodec, UncompressOptions } from "./codec.js";
import { toSnappyError } from "./errors.js";
import { assertBytes, assertOutputLength, checkUncompressedLength } from "./limits.js";
import { validateCompressed } from "./validate.js";

/**
 * What an adapter knows about its backend. {@link guardedCodec} turns it into a
 * {@link SnappyCodec} with the contract's checks, so adapters hold only what differs:
 * loading, conversions at the edge, and which guard the backend needs.
 */
export interface Backend {
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
  compress(input: Uint8Array): Uint8Array;
  /** Decode a stream that passed the guard; `length` is the length it declares. */
  uncompress(input: Uint8Array, length: number): Uint8Array;
  /** Present when the backend can compress off the main thread. */
  compressAsync?(input: Uint8Array): Promise<Uint8Array>;
  /** Present when the backend can decompress off the main thread. */
  uncompressAsync?(input: Uint8Array, length: number): Promise<Uint8Array>;
}

/**
 * Wrap a {@link Backend} in the contract: arguments checked, the backend's guard run
 * before it sees compressed input, its output length checked against the preamble, and
 * anything it throws turned into a {@link SnappyError} (`BACKEND_ERROR` from compress,
 * `CORRUPT_INPUT` from uncompress unless the backend threw a `SnappyError` itself).
 */
export function guardedCodec(backend: Backend): SnappyCodec {
  const { library } = backend;
  const compressFailed = `${library} failed to compress`;
  const rejected = `${library} rejected the stream`;
  const guard =
    backend.guard === "stream"
      ? validateCompressed
      : (input: Uint8Array, options?: UncompressOptions) =>
          checkUncompressedLength(input, options).length;

  const compress = (input: Uint8Array): Uint8Array => {
    assertBytes(input);
    try {
      return backend.compress(input);
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
    return output;
  };
  const codec: SnappyCodec = {
    contractVersion: 1,
    name: backend.name,
    library,
    runtime: backend.runtime,
    compress,
    uncompress,
  };

  const { compressAsync, uncompressAsync } = backend;
  if (!compressAsync && !uncompressAsync) return codec;
  return {
    ...codec,
    ...(compressAsync && {
      async compressAsync(input: Uint8Array) {
        assertBytes(input);
        try {
          return await compressAsync(input);
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
          output = await uncompressAsync(input, length);
        } catch (error) {
          throw toSnappyError(error, rejected);
        }
        assertOutputLength(output, length, library);
        return output;
      },
    }),
  };
}

/**
 * snappykit adapter for `@stablelib/snappy`: a TypeScript port of Go's snappy.
 * @packageDocumentation
 */
import {
  assertBytes,
  assertOutputLength,
  checkUncompressedLength,
  type RawBackend,
  type SnappyCodec,
  toSnappyError,
  type UncompressOptions,
} from "@snappykit/core";
import { installedLibrary } from "@snappykit/core/node";
import { compress, decompress } from "@stablelib/snappy";

/** Short id of this adapter in reports and CLI filters. */
export const name = "stablelib";

/**
 * Create a {@link SnappyCodec} backed by `@stablelib/snappy`.
 *
 * Its decoder checks every element, but parses the length preamble loosely: a varint that
 * never ends decodes to 0 bytes, and a fifth byte over 0x0f or a sixth byte is folded into
 * a different length. `uncompress` therefore reads the preamble strictly with
 * `checkUncompressedLength` (which also enforces `maxLength` and the expansion bound) and
 * checks the output against it with `assertOutputLength`. Results are fresh arrays.
 */
export async function createCodec(): Promise<SnappyCodec> {
  const library = installedLibrary("@stablelib/snappy", import.meta.url);
  return {
    contractVersion: 1,
    name,
    library,
    runtime: "js",
    compress(input: Uint8Array): Uint8Array {
      assertBytes(input);
      try {
        return compress(input);
      } catch (error) {
        throw toSnappyError(error, `${library} failed to compress`, "BACKEND_ERROR");
      }
    },
    uncompress(input: Uint8Array, options?: UncompressOptions): Uint8Array {
      const { length } = checkUncompressedLength(input, options);
      let output: Uint8Array;
      try {
        output = decompress(input);
      } catch (error) {
        throw toSnappyError(error, `${library} rejected the stream`);
      }
      assertOutputLength(output, length, library);
      return output;
    },
  };
}

/**
 * `@stablelib/snappy` called directly, for the bench and the fuzzer. No guards: never
 * use it on untrusted input.
 */
export async function createRaw(): Promise<RawBackend> {
  return {
    library: installedLibrary("@stablelib/snappy", import.meta.url),
    compress: (input) => compress(input),
    uncompress: (input) => decompress(input),
  };
}

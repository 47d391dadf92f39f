/**
 * snappykit adapter for `@stablelib/snappy`: a TypeScript port of Go's snappy.
 * @packageDocumentation
 */
import { guardedCodec, type RawBackend, type SnappyCodec } from "@snappykit/core";
import { compress, decompress } from "@stablelib/snappy";
// The version of the copy actually loaded, read without Node APIs so that the adapter
// bundles for browsers (JSON import attributes: Node 20.10+, Bun, Deno, bundlers).
import pkg from "@stablelib/snappy/package.json" with { type: "json" };

/** Short id of this adapter in reports and CLI filters. */
export const name = "stablelib";

const library = `${pkg.name}@${pkg.version}`;

/**
 * Create a {@link SnappyCodec} backed by `@stablelib/snappy`.
 *
 * Its decoder checks every element, but parses the length preamble loosely: a varint that
 * never ends decodes to 0 bytes, and a fifth byte over 0x0f or a sixth byte is folded into
 * a different length. `uncompress` therefore reads the preamble strictly with
 * `checkUncompressedLength` (which also enforces `maxLength` and the expansion bound) and
 * the output is checked against it. Results are fresh arrays.
 */
export async function createCodec(): Promise<SnappyCodec> {
  return guardedCodec({
    name,
    library,
    runtime: "js",
    guard: "length",
    compress: (input) => compress(input),
    uncompress: (input) => decompress(input),
  });
}

/**
 * `@stablelib/snappy` called directly, for the bench and the fuzzer. No guards: never
 * use it on untrusted input.
 */
export async function createRaw(): Promise<RawBackend> {
  return {
    library,
    compress: (input) => compress(input),
    uncompress: (input) => decompress(input),
  };
}

/**
 * snappykit adapter for `@stablelib/snappy`: a TypeScript port of Go's snappy.
 * @packageDocumentation
 */
import { guardedCodec, maxCompressedLength, type SnappyCodec, SnappyError } from "@snappykit/core";
import { compress, decompress } from "@stablelib/snappy";
// The version of the copy actually loaded, read without Node APIs so that the adapter
// bundles for browsers (JSON import attributes: Node 20.10+, Bun, Deno, bundlers).
import pkg from "@stablelib/snappy/package.json" with { type: "json" };

/** Short id of this adapter in reports and CLI filters. */
export const name = "stablelib";

const library = `${pkg.name}@${pkg.version}`;

/**
 * Output room `@stablelib/snappy`'s `compress(src, dst)` needs to write into `dst`: its own
 * `ceil(32 + n + n/6)`, a byte over the format's bound when n is not a multiple of 6. Given
 * less, it silently allocates a new array instead. Computed here, not by the library's
 * `maxCompressedLength`, which returns 0 above the 1,840,700,241 bytes it compresses: the
 * contract's bound is defined up to 2^32-1 (compress then fails there with BACKEND_ERROR).
 */
function stablelibBound(length: number): number {
  return maxCompressedLength(length) + (length % 6 === 0 ? 0 : 1);
}

/** Fail loudly if the library returned anything but a view of `output` from index 0. */
function wroteInto(result: Uint8Array, output: Uint8Array): number {
  if (result.buffer !== output.buffer || result.byteOffset !== output.byteOffset) {
    throw new SnappyError("backend-failed", "@stablelib/snappy did not write into the given array");
  }
  return result.length;
}

/**
 * Largest compress output kept in a reused scratch array: the bound of a 1 MiB input.
 * compress(src) allocates a worst-case array per call and returns a view of its start: a
 * result whose buffer is up to 17% larger than its bytes. Compressing into one reused
 * scratch array and copying the bytes out costs a copy of the output but saves allocating
 * the worst case on every call. The copy is a fresh array of exactly
 * the result's length, as `freshOutput` declares.
 */
export const SCRATCH_MAX = stablelibBound(1 << 20);
let scratch = new Uint8Array(0);
function compressOwned(input: Uint8Array): Uint8Array {
  const need = stablelibBound(input.length);
  if (need > SCRATCH_MAX) return compress(input).slice();
  if (scratch.length < need) scratch = new Uint8Array(Math.max(need, 4096));
  return compress(input, scratch).slice();
}

/**
 * Create a {@link SnappyCodec} backed by `@stablelib/snappy`.
 *
 * Its decoder checks every element, but parses the length preamble loosely: a varint that
 * never ends decodes to 0 bytes, and a fifth byte over 0x0f or a sixth byte is folded into
 * a different length. `uncompress` therefore reads the preamble strictly with
 * `checkUncompressedLength` (which also enforces `maxLength` and the expansion bound) and
 * the output is checked against it.
 *
 * `compress(src, dst)` and `decompress(src, dst)` write straight into a caller's array, so
 * this codec declares `compressInto` and `uncompressInto` (the core hands `decompress`
 * exactly the declared length, so nothing past it can be written), and checks that the
 * library did write there rather than allocate.
 */
export async function createCodec(): Promise<SnappyCodec> {
  return guardedCodec({
    name,
    library,
    runtime: "js",
    guard: "length",
    // compressOwned copies its result out; decompress allocates exactly the declared length.
    freshOutput: true,
    compress: compressOwned,
    uncompress: (input) => decompress(input),
    maxCompressedLength: stablelibBound,
    compressInto: (input, output) => wroteInto(compress(input, output), output),
    uncompressInto: (input, output) => wroteInto(decompress(input, output), output),
  });
}

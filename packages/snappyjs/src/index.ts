import { guardedCodec, type SnappyCodec } from "@snappykit/core";
import snappyjs from "snappyjs";
// The version of the copy actually loaded, read without Node APIs so that the adapter
// bundles for browsers (JSON import attributes: Node 20.10+, Bun, Deno, bundlers).
import pkg from "snappyjs/package.json" with { type: "json" };

const library = `${pkg.name}@${pkg.version}`;

/**
 * A {@link SnappyCodec} over `snappyjs`, pure JavaScript (Lodestar's gossip codec).
 *
 * snappyjs never checks its output against the preamble: it zero-fills truncated streams,
 * allocates whatever the preamble claims and can loop for minutes on a 6-byte input. So
 * every stream is proven valid by `validateCompressed` (the "stream" guard: one pass over
 * the tags) before snappyjs sees it.
 */
export async function createCodec(): Promise<SnappyCodec> {
  return guardedCodec({
    name: "snappyjs",
    library,
    runtime: "js",
    guard: "stream",
    // Given a plain Uint8Array, snappyjs returns a new one of exactly the result's length.
    freshOutput: true,
    compress: (input) => snappyjs.compress(plain(input)),
    uncompress: (input) => snappyjs.uncompress(plain(input)),
  });
}

/**
 * `input` as a plain `Uint8Array` over the same memory. Given a `Buffer`, snappyjs answers
 * with a `Buffer`, and compresses into a view of a larger one (`Buffer#slice` does not
 * copy), which the codec would then have to copy out.
 */
function plain(input: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(input) === Uint8Array.prototype
    ? input
    : new Uint8Array(input.buffer, input.byteOffset, input.length);
}

import { guardedCodec, type RawBackend, type SnappyCodec } from "@snappykit/core";
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
    compress: (input) => snappyjs.compress(input),
    uncompress: (input) => snappyjs.uncompress(input),
  });
}

/** snappyjs called directly: no validation, no length limit. */
export async function createRaw(): Promise<RawBackend> {
  return {
    library,
    compress: (input) => snappyjs.compress(input),
    uncompress: (input) => snappyjs.uncompress(input),
  };
}

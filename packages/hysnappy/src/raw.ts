import { type RawBackend, readUncompressedLength } from "@snappykit/core";
import { instantiate } from "./instantiate.js";

/**
 * hysnappy called directly, for the bench and the fuzzer: `uncompress` passes the
 * preamble's length because hysnappy cannot work without it, and checks nothing else.
 * Never use it on untrusted input.
 */
export async function createRaw(): Promise<RawBackend> {
  const backend = instantiate();
  return {
    library: backend.library,
    compress: backend.compress,
    uncompress: (input) => backend.uncompress(input, readUncompressedLength(input).length),
  };
}

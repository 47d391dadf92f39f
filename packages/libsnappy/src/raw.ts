import type { RawBackend } from "@snappykit/core";
import { asBuffer } from "@snappykit/core/node";
import { AS_BUFFER, load } from "./load.js";

/**
 * `snappy@6` called directly, for the bench and the fuzzer: inputs are viewed as `Buffer`s
 * (the binding asserts on anything else) and output is requested as a `Buffer`; no length
 * guard, no error mapping. Never use it on untrusted input: a 5-byte preamble makes it
 * zero-fill 4 GiB.
 */
export async function createRaw(): Promise<RawBackend> {
  const { module: binding, library } = load();
  return {
    library,
    compress: (input) => binding.compressSync(asBuffer(input)),
    uncompress: (input) => binding.uncompressSync(asBuffer(input), AS_BUFFER),
  };
}

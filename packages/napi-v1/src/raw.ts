import type { RawBackend } from "@snappykit/core";
import { asBuffer } from "@snappykit/core/node";
import { load } from "./load.js";

/**
 * `@napi-rs/snappy@1` called directly, for the bench and the fuzzer: no length guard, no
 * error mapping; `uncompress` only views its input as a `Buffer`. Never use it on
 * untrusted input. Refused in a worker thread, like `createCodec`.
 */
export async function createRaw(): Promise<RawBackend> {
  const { module: binding, library } = load();
  return {
    library,
    compress: (input) => binding.compressSync(input),
    uncompress: (input) => binding.uncompressSync(asBuffer(input)),
  };
}

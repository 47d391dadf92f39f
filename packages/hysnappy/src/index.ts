/**
 * snappykit adapter for `hysnappy`: snappy-c compiled to a small WebAssembly module.
 * @packageDocumentation
 */
import { guardedCodec, type SnappyCodec, toSnappyError } from "@snappykit/core";
import { instantiate } from "./instantiate.js";

/** Short id of this adapter in reports and CLI filters. */
export const name = "hysnappy";

/**
 * Create a {@link SnappyCodec} backed by hysnappy.
 *
 * hysnappy's decoder writes as many bytes as the caller says the output has and trusts
 * that number, so `uncompress` first proves the whole stream valid (the "stream" guard:
 * `validateCompressed`, which also enforces `maxLength` and the expansion bound) and only
 * then hands it to the wasm decoder with the declared length. Both directions return
 * arrays hysnappy already copied out of wasm memory, so the adapter adds no copy.
 */
export async function createCodec(): Promise<SnappyCodec> {
  const backend = instantiate();
  const { library } = backend;
  return guardedCodec({
    name,
    library,
    runtime: "wasm",
    guard: "stream",
    // Each result is a fresh `slice()` copied out of wasm memory, exactly its length.
    freshOutput: true,
    compress: backend.compress,
    uncompress(input, length) {
      try {
        return backend.uncompress(input, length);
      } catch (error) {
        // The stream is proven valid by now: a RangeError means wasm memory could not
        // grow to the declared length (wasm32 tops out below 4 GiB), not bad input.
        if (error instanceof RangeError) throw toSnappyError(error, library, "BACKEND_ERROR");
        throw error;
      }
    },
  });
}

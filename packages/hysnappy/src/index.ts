/**
 * snappykit adapter for `hysnappy`: snappy-c compiled to a small WebAssembly module.
 * @packageDocumentation
 */
import {
  guardedCodec,
  type RawBackend,
  readUncompressedLength,
  type SnappyCodec,
  toSnappyError,
} from "@snappykit/core";
import { snappyCompressor, snappyUncompressor } from "hysnappy";
// The version of the copy actually loaded, read without Node APIs so that the adapter
// bundles for browsers (JSON import attributes: Node 20.10+, Bun, Deno, bundlers).
import pkg from "hysnappy/package.json" with { type: "json" };

/** Short id of this adapter in reports and CLI filters. */
export const name = "hysnappy";

// One wasm instance per direction for the life of the codec: hysnappy's one-shot
// snappyCompress/snappyUncompress rebuild the module on every call.
function instantiate() {
  return {
    library: `${pkg.name}@${pkg.version}`,
    compress: snappyCompressor(),
    uncompress: snappyUncompressor(),
  };
}

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

/**
 * snappykit adapter for `snappy-wasm`: a wasm-bindgen build of the Rust `snap` crate.
 * @packageDocumentation
 */
import { guardedCodec, type RawBackend, type SnappyCodec } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";

/** Short id of this adapter in reports and CLI filters. */
export const name = "snappy-wasm";

type SnappyWasm = Pick<typeof import("snappy-wasm"), "compress_raw" | "decompress_raw">;

// The CommonJS build instantiates its wasm synchronously from a file next to it. The ESM
// build's `init()` fetches `new URL("snappy_bg.wasm", import.meta.url)`, and Node 20's
// fetch cannot read file: URLs, so loading through require is the robust path on Node.
const load = () => loadBackend<SnappyWasm>("snappy-wasm", import.meta.url);

/**
 * Create a {@link SnappyCodec} backed by snappy-wasm's block-format functions
 * (`compress_raw`/`decompress_raw`; its plain `compress` writes the framing format).
 *
 * `snap` validates every stream itself, but it reserves the declared length inside wasm
 * memory first, and wasm memory never shrinks. So `uncompress` runs
 * `checkUncompressedLength` (`maxLength` and the 64/3 expansion bound) before the call.
 * snappy-wasm copies its results out of wasm memory, so the adapter adds no copy.
 */
export async function createCodec(): Promise<SnappyCodec> {
  const { module: backend, library } = load();
  return guardedCodec({
    name,
    library,
    runtime: "wasm",
    guard: "length",
    compress: (input) => backend.compress_raw(input),
    uncompress: (input) => backend.decompress_raw(input),
  });
}

/**
 * snappy-wasm's `compress_raw`/`decompress_raw` called directly, for the bench and the
 * fuzzer. No length guard: never use it on untrusted input.
 */
export async function createRaw(): Promise<RawBackend> {
  const { module: backend, library } = load();
  return {
    library,
    compress: (input) => backend.compress_raw(input),
    uncompress: (input) => backend.decompress_raw(input),
  };
}

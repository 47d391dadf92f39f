/**
 * snappykit adapter for `@napi-rs/snappy-wasm32-wasi@7`: the Rust code of `snappy@7`
 * compiled to WASI and run by `@napi-rs/wasm-runtime` (emnapi) instead of as a native addon.
 * @packageDocumentation
 */
import type { SnappyCodec } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";
import { codecOver, PACKAGE, type SnappyWasi } from "./codec.js";

export { name } from "./codec.js";

// Required explicitly (the WASI package's own entry, snappy.wasi.cjs), never through
// snappy@7's platform fallback, and only when first asked for: instantiating compiles the
// wasm module, starts its worker pool and prints Node's experimental WASI warning.
// Browsers get browser.ts (the "browser" export condition) instead.
const load = () => loadBackend<SnappyWasi>(PACKAGE, import.meta.url);

/**
 * Create a {@link SnappyCodec} backed by the WASI build of `snappy@7` (runtime "wasm").
 *
 * The wasm code allocates the length a stream's preamble claims before validating it, so
 * `uncompress` runs `checkUncompressedLength` first (maxLength and the 64/3 expansion
 * bound); the `snap` decoder rejects everything else, including output whose length
 * differs from the preamble. Outputs are copied out of wasm memory by the binding
 * (`copyOutputData: true`). `compressAsync`/`uncompressAsync` run on the runtime's worker
 * threads.
 * @throws SnappyError `UNSUPPORTED` when the WASI module cannot be loaded.
 */
export async function createCodec(): Promise<SnappyCodec> {
  return codecOver(load());
}

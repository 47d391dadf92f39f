/**
 * snappykit adapter for `snappy-wasm`: a wasm-bindgen build of the Rust `snap` crate.
 * @packageDocumentation
 */
import type { SnappyCodec } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";
import { codecOver, type SnappyWasm } from "./codec.js";

export { name } from "./codec.js";

// The CommonJS build instantiates its wasm synchronously from a file next to it. The ESM
// build's `init()` fetches `new URL("snappy_bg.wasm", import.meta.url)`, and Node 20's
// fetch cannot read file: URLs, so loading through require is the robust path on Node.
// Browsers get browser.ts (the "browser" export condition) instead.
const load = () => loadBackend<SnappyWasm>("snappy-wasm", import.meta.url);

/**
 * Create a {@link SnappyCodec} backed by snappy-wasm's block-format functions, with the
 * length guard before every `uncompress` (see `codecOver`).
 */
export async function createCodec(): Promise<SnappyCodec> {
  return codecOver(load());
}

// The browser entry (the "browser" export condition): the WASI package's browser build
// (snappy.wasi-browser.js), imported on first use since it fetches and instantiates its
// wasm module at import. It needs SharedArrayBuffer, so a cross-origin isolated page, and
// it starts its workers from `new URL("@napi-rs/snappy-wasm32-wasi/wasi-worker-browser.mjs",
// import.meta.url)`, which the bundler must resolve and bundle (Vite does). Its results are
// Node Buffers, so it also needs a global Buffer polyfill.

import type { SnappyCodec } from "@snappykit/core";
import { library, load } from "./browser-load.js";
import { codecOver } from "./codec.js";

export { name } from "./codec.js";

/** The Node entry's codec over the browser build. */
export async function createCodec(): Promise<SnappyCodec> {
  return codecOver({ module: await load(), library });
}

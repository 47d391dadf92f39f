// The browser entry (the "browser" export condition): the WASI package's browser build
// (snappy.wasi-browser.js), imported on first use since it fetches and instantiates its
// wasm module at import. It needs SharedArrayBuffer, so a cross-origin isolated page, and
// it starts its workers from `new URL("@napi-rs/snappy-wasm32-wasi/wasi-worker-browser.mjs",
// import.meta.url)`, which the bundler must resolve and bundle (Vite does). Its results are
// Node Buffers, so it also needs a global Buffer polyfill.

import pkg from "@napi-rs/snappy-wasm32-wasi/package.json" with { type: "json" };
import { type RawBackend, type SnappyCodec, SnappyError, toSnappyError } from "@snappykit/core";
import { codecOver, PACKAGE, rawOver, type SnappyWasi } from "./codec.js";

export { name } from "./codec.js";

const library = `${pkg.name}@${pkg.version}`;

async function load(): Promise<SnappyWasi> {
  // emnapi creates every result with napi_create_buffer_copy, which needs a Node-style
  // global Buffer; without one each call fails, so refuse before instantiating.
  if (!("Buffer" in globalThis)) {
    throw new SnappyError(
      "unsupported",
      `${PACKAGE}'s browser build returns Node Buffers: define globalThis.Buffer (e.g. the "buffer" package) before createCodec()`,
    );
  }
  try {
    return (await import("@napi-rs/snappy-wasm32-wasi")) as unknown as SnappyWasi;
  } catch (error) {
    throw toSnappyError(error, `${PACKAGE} failed to load`, "UNSUPPORTED");
  }
}

/** The Node entry's codec over the browser build. */
export async function createCodec(): Promise<SnappyCodec> {
  return codecOver({ module: await load(), library });
}

/** The Node entry's raw backend over the browser build. */
export async function createRaw(): Promise<RawBackend> {
  return rawOver({ module: await load(), library });
}

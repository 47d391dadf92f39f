// The WASI package's browser build for the browser entries (browser.ts, raw-browser.ts).
import pkg from "@napi-rs/snappy-wasm32-wasi/package.json" with { type: "json" };
import { SnappyError, toSnappyError } from "@snappykit/core";
import { PACKAGE, type SnappyWasi } from "./codec.js";

export const library = `${pkg.name}@${pkg.version}`;

/** The browser build, imported on first use. */
export async function load(): Promise<SnappyWasi> {
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

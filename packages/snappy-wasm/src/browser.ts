// The browser entry (the "browser" export condition): snappy-wasm's ESM build, whose
// `init()` fetches `snappy_bg.wasm` relative to the module (bundlers that handle
// `new URL(file, import.meta.url)`, such as Vite and webpack, ship the file).
import type { SnappyCodec } from "@snappykit/core";
import { backend, initOnce, library } from "./browser-load.js";
import { codecOver } from "./codec.js";

export { name } from "./codec.js";

/** The Node entry's codec, after fetching and instantiating the wasm module once. */
export async function createCodec(): Promise<SnappyCodec> {
  await initOnce();
  return codecOver({ module: backend, library });
}

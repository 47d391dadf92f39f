// The browser entry (the "browser" export condition): snappy-wasm's ESM build, whose
// `init()` fetches `snappy_bg.wasm` relative to the module (bundlers that handle
// `new URL(file, import.meta.url)`, such as Vite and webpack, ship the file).
import type { RawBackend, SnappyCodec } from "@snappykit/core";
import * as snappyWasm from "snappy-wasm";
// snappy-wasm's exports map hides its package.json, so the version is the exact one this
// package depends on (the Node entry reads the installed copy's).
import pkg from "../package.json" with { type: "json" };
import { codecOver, rawOver } from "./codec.js";

export { name } from "./codec.js";

const library = `snappy-wasm@${pkg.dependencies["snappy-wasm"]}`;
const { compress_raw, decompress_raw } = snappyWasm;
const backend = { compress_raw, decompress_raw };
// The ESM build's default export is `init`; TypeScript reads its .d.ts as CommonJS (the
// package has no "type": "module"), hence the cast.
const init = snappyWasm.default as unknown as () => Promise<unknown>;
let ready: Promise<unknown> | undefined;

/** Instantiate the wasm module on first use only. */
function initOnce(): Promise<unknown> {
  ready ??= init();
  return ready;
}

/** The Node entry's codec, after fetching and instantiating the wasm module once. */
export async function createCodec(): Promise<SnappyCodec> {
  await initOnce();
  return codecOver({ module: backend, library });
}

/** The Node entry's raw backend (no length guard), after the same `init()`. */
export async function createRaw(): Promise<RawBackend> {
  await initOnce();
  return rawOver({ module: backend, library });
}

// snappy-wasm's ESM build for the browser entries (browser.ts, raw-browser.ts).
import * as snappyWasm from "snappy-wasm";
// snappy-wasm's exports map hides its package.json, so the version is the exact one this
// package depends on (the Node entry reads the installed copy's).
import pkg from "../package.json" with { type: "json" };

export const library = `snappy-wasm@${pkg.dependencies["snappy-wasm"]}`;
const { compress_raw, decompress_raw } = snappyWasm;
export const backend = { compress_raw, decompress_raw };
// The ESM build's default export is `init`; TypeScript reads its .d.ts as CommonJS (the
// package has no "type": "module"), hence the cast.
const init = snappyWasm.default as unknown as () => Promise<unknown>;
let ready: Promise<unknown> | undefined;

/** Instantiate the wasm module on first use only. */
export function initOnce(): Promise<unknown> {
  ready ??= init();
  return ready;
}

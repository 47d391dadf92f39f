// The codec over the WASI build's binding, shared by the Node entry (index.ts, which
// requires snappy.wasi.cjs) and the browser entry (browser.ts, snappy.wasi-browser.js).
import { guardedCodec, type RawBackend, type SnappyCodec } from "@snappykit/core";

/** Short id of this adapter in reports and CLI filters. */
export const name = "napi-wasi";

/** The WASI package. */
export const PACKAGE = "@napi-rs/snappy-wasm32-wasi";

interface EncOptions {
  copyOutputData?: boolean;
}
interface DecOptions extends EncOptions {
  asBuffer: true;
}

/** The part of the WASI build's API this adapter uses (from its snappy.wasi.d.cts). */
export interface SnappyWasi {
  compressSync(input: Uint8Array, options?: EncOptions): Uint8Array;
  compress(input: Uint8Array, options?: EncOptions): Promise<Uint8Array>;
  uncompressSync(input: Uint8Array, options: DecOptions): Uint8Array;
  uncompress(input: Uint8Array, options: DecOptions): Promise<Uint8Array>;
}

/** The loaded build and its `name@version`, as index.ts and browser.ts load it. */
type Loaded = { readonly module: SnappyWasi; readonly library: string };

// By default the binding returns arrays (Buffers on Node) that view its shared wasm memory (their
// `.buffer` is the whole SharedArrayBuffer, hundreds of MB). copyOutputData makes it copy
// the result into an ordinary ArrayBuffer, so callers never hold a window into the heap.
const ENCODE: EncOptions = { copyOutputData: true };
const DECODE: DecOptions = { asBuffer: true, copyOutputData: true };
// The raw backend keeps the library's default output; asBuffer stops a string result.
const RAW_DECODE: DecOptions = { asBuffer: true };

/** The guarded codec over `binding` (see `createCodec` in index.ts). */
export function codecOver({ module: binding, library }: Loaded): SnappyCodec {
  return guardedCodec({
    name,
    library,
    runtime: "wasm",
    guard: "length",
    compress: (input) => binding.compressSync(input, ENCODE),
    uncompress: (input) => binding.uncompressSync(input, DECODE),
    compressAsync: (input) => binding.compress(input, ENCODE),
    uncompressAsync: (input) => binding.uncompress(input, DECODE),
  });
}

/** `binding` with the library's defaults: no guard, outputs view wasm memory. */
export function rawOver({ module: binding, library }: Loaded): RawBackend {
  return {
    library,
    compress: (input) => binding.compressSync(input),
    uncompress: (input) => binding.uncompressSync(input, RAW_DECODE),
  };
}

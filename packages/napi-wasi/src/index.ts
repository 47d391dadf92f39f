/**
 * snappykit adapter for `@napi-rs/snappy-wasm32-wasi@7`: the Rust code of `snappy@7`
 * compiled to WASI and run by `@napi-rs/wasm-runtime` (emnapi) instead of as a native addon.
 * @packageDocumentation
 */
import { guardedCodec, type RawBackend, type SnappyCodec } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";

/** Short id of this adapter in reports and CLI filters. */
export const name = "napi-wasi";

const PACKAGE = "@napi-rs/snappy-wasm32-wasi";

interface EncOptions {
  copyOutputData?: boolean;
}
interface DecOptions extends EncOptions {
  asBuffer: true;
}

/** The part of the WASI build's API this adapter uses (from its snappy.wasi.d.cts). */
interface SnappyWasi {
  compressSync(input: Uint8Array, options?: EncOptions): Buffer;
  compress(input: Uint8Array, options?: EncOptions): Promise<Buffer>;
  uncompressSync(input: Uint8Array, options: DecOptions): Buffer;
  uncompress(input: Uint8Array, options: DecOptions): Promise<Buffer>;
}

// By default the binding returns Buffers that view its shared wasm memory (their
// `.buffer` is the whole SharedArrayBuffer, hundreds of MB). copyOutputData makes it copy
// the result into an ordinary ArrayBuffer, so callers never hold a window into the heap.
const ENCODE: EncOptions = { copyOutputData: true };
const DECODE: DecOptions = { asBuffer: true, copyOutputData: true };
// The raw backend keeps the library's default output; asBuffer stops a string result.
const RAW_DECODE: DecOptions = { asBuffer: true };

// Required explicitly (the WASI package's own entry, snappy.wasi.cjs), never through
// snappy@7's platform fallback, and only when first asked for: instantiating compiles the
// wasm module, starts its worker pool and prints Node's experimental WASI warning.
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
  const { module: binding, library } = load();
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

/**
 * The WASI build called directly, for the bench and the fuzzer: library defaults (outputs
 * view wasm memory), `asBuffer: true` only, no length guard, no error mapping. Never use
 * it on untrusted input: a 10-byte stream can make it allocate gigabytes.
 */
export async function createRaw(): Promise<RawBackend> {
  const { module: binding, library } = load();
  return {
    library,
    compress: (input) => binding.compressSync(input),
    uncompress: (input) => binding.uncompressSync(input, RAW_DECODE),
  };
}

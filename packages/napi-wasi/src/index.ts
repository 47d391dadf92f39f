/**
 * snappykit adapter for `@napi-rs/snappy-wasm32-wasi@7`: the Rust code of `snappy@7`
 * compiled to WASI and run by `@napi-rs/wasm-runtime` (emnapi) instead of as a native addon.
 * @packageDocumentation
 */
import { createRequire } from "node:module";
import {
  assertBytes,
  checkUncompressedLength,
  type RawBackend,
  type SnappyCodec,
  toSnappyError,
  type UncompressOptions,
} from "@snappykit/core";
import { installedLibrary } from "@snappykit/core/node";

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
function load(): { library: string; binding: SnappyWasi } {
  try {
    const binding = createRequire(import.meta.url)(PACKAGE) as SnappyWasi;
    return { library: installedLibrary(PACKAGE, import.meta.url), binding };
  } catch (error) {
    throw toSnappyError(error, `${PACKAGE} failed to load`, "UNSUPPORTED");
  }
}

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
  const { library, binding } = load();
  const compressFailed = `${library} failed to compress`;
  const rejected = `${library} rejected the stream`;
  return {
    contractVersion: 1,
    name,
    library,
    runtime: "wasm",
    compress(input: Uint8Array): Uint8Array {
      assertBytes(input);
      try {
        return binding.compressSync(input, ENCODE);
      } catch (error) {
        throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
      }
    },
    uncompress(input: Uint8Array, options?: UncompressOptions): Uint8Array {
      checkUncompressedLength(input, options);
      try {
        return binding.uncompressSync(input, DECODE);
      } catch (error) {
        throw toSnappyError(error, rejected);
      }
    },
    async compressAsync(input: Uint8Array): Promise<Uint8Array> {
      assertBytes(input);
      try {
        return await binding.compress(input, ENCODE);
      } catch (error) {
        throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
      }
    },
    async uncompressAsync(input: Uint8Array, options?: UncompressOptions): Promise<Uint8Array> {
      checkUncompressedLength(input, options);
      try {
        return await binding.uncompress(input, DECODE);
      } catch (error) {
        throw toSnappyError(error, rejected);
      }
    },
  };
}

/**
 * The WASI build called directly, for the bench and the fuzzer: library defaults (outputs
 * view wasm memory), `asBuffer: true` only, no length guard, no error mapping. Never use
 * it on untrusted input: a 10-byte stream can make it allocate gigabytes.
 */
export async function createRaw(): Promise<RawBackend> {
  const { library, binding } = load();
  return {
    library,
    compress: (input) => binding.compressSync(input),
    uncompress: (input) => binding.uncompressSync(input, RAW_DECODE),
  };
}

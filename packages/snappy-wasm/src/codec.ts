// The codec over snappy-wasm's block functions, shared by the Node entry (index.ts, the
// CommonJS build) and the browser entry (browser.ts, the ESM build).
import { guardedCodec, type RawBackend, type SnappyCodec } from "@snappykit/core";

/** Short id of this adapter in reports and CLI filters. */
export const name = "snappy-wasm";

/** The block-format functions of either build. */
export type SnappyWasm = Pick<typeof import("snappy-wasm"), "compress_raw" | "decompress_raw">;

/** The loaded build and its `name@version`, as index.ts and browser.ts load it. */
type Loaded = { readonly module: SnappyWasm; readonly library: string };

/**
 * A {@link SnappyCodec} over snappy-wasm's block-format functions
 * (`compress_raw`/`decompress_raw`; its plain `compress` writes the framing format).
 *
 * `snap` validates every stream itself, but it reserves the declared length inside wasm
 * memory first, and wasm memory never shrinks. So `uncompress` runs
 * `checkUncompressedLength` (`maxLength` and the 64/3 expansion bound) before the call.
 * snappy-wasm copies its results out of wasm memory, so the adapter adds no copy.
 */
export function codecOver({ module: backend, library }: Loaded): SnappyCodec {
  return guardedCodec({
    name,
    library,
    runtime: "wasm",
    guard: "length",
    // Each result is a fresh `slice()` copied out of wasm memory, exactly its length.
    freshOutput: true,
    compress: (input) => backend.compress_raw(input),
    uncompress: (input) => backend.decompress_raw(input),
  });
}

/** The same functions called directly: no length guard. */
export function rawOver({ module: backend, library }: Loaded): RawBackend {
  return {
    library,
    compress: (input) => backend.compress_raw(input),
    uncompress: (input) => backend.decompress_raw(input),
  };
}

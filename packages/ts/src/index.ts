/**
 * `@snappykit/ts`: a Snappy codec in TypeScript, its hot loops in a small WebAssembly kernel
 * (kernel.wat; a plain decoder and compressor, plain.ts, run where it cannot be compiled). Writes
 * the same bytes as Google libsnappy 1.1.7 and snappy@7, decodes strictly, and runs wherever
 * JavaScript does (no Node APIs, no third-party dependencies).
 * @packageDocumentation
 */
import { maxCompressedLength, type SnappyCodec } from "@snappykit/core";
// JSON import attributes: the version reported is the one in the package actually loaded.
import pkg from "../package.json" with { type: "json" };
import { compress, compressInto } from "./compress.js";
import { uncompress, uncompressedLength, uncompressInto } from "./decompress.js";
import { kernel } from "./kernel.js";

export {
  compress,
  compressInto,
  maxCompressedLength,
  uncompress,
  uncompressedLength,
  uncompressInto,
};

// One message compressed and decoded at import where the kernel loaded: the first call of each
// otherwise pays for compiling the TypeScript around the kernel and the kernel's functions.
if (kernel) {
  const sample = Uint8Array.from({ length: 2048 }, (_, i) => (i * i) >>> 7);
  uncompress(compress(sample));
}

/** This package and its version, as reported in {@link SnappyCodec.library}: `@snappykit/ts@x.y.z`. */
export const library = `${pkg.name}@${pkg.version}`;

/**
 * The snappykit adapter: `compress` and `uncompress` behind the {@link SnappyCodec} contract,
 * with every optional capability: `uncompressedLength`, `maxCompressedLength`, and
 * `compressInto`/`uncompressInto`, which write straight into the caller's array. Nothing to
 * guard: the codec's own decoder is strict and length-checked, so the adapter adds no copies
 * and no checks.
 */
export async function createCodec(): Promise<SnappyCodec> {
  return {
    contractVersion: 1,
    name: "ts",
    library,
    // The hot loops run in the WebAssembly kernel where it compiles, plain.ts elsewhere.
    runtime: kernel ? "wasm" : "js",
    compress,
    uncompress,
    uncompressedLength,
    maxCompressedLength,
    compressInto,
    uncompressInto,
  };
}

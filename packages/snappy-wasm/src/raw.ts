import type { RawBackend } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";
import { rawOver, type SnappyWasm } from "./codec.js";

/**
 * snappy-wasm's `compress_raw`/`decompress_raw` called directly, for the bench and the
 * fuzzer, loaded as index.ts loads it. No length guard: never use it on untrusted input.
 */
export async function createRaw(): Promise<RawBackend> {
  return rawOver(loadBackend<SnappyWasm>("snappy-wasm", import.meta.url));
}

import type { RawBackend } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";
import { PACKAGE, rawOver, type SnappyWasi } from "./codec.js";

/**
 * The WASI build called directly (loaded as index.ts loads it), for the bench and the
 * fuzzer: library defaults (outputs view wasm memory), `asBuffer: true` only, no length
 * guard, no error mapping. Never use it on untrusted input: a 10-byte stream can make it
 * allocate gigabytes.
 */
export async function createRaw(): Promise<RawBackend> {
  return rawOver(loadBackend<SnappyWasi>(PACKAGE, import.meta.url));
}

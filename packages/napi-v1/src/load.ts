// The binding's loader, shared by the codec (index.ts) and the raw backend (raw.ts).
import { isMainThread } from "node:worker_threads";
import { SnappyError } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";

const PACKAGE = "@napi-rs/snappy";

/** The part of `@napi-rs/snappy@1`'s API this adapter uses (from its index.d.ts). */
interface NapiSnappyV1 {
  compressSync(input: Uint8Array): Buffer;
  uncompressSync(compressed: Buffer): Buffer;
}

/**
 * Why the binding is not loaded in a worker thread: the addon (napi-rs 1.x) cannot be
 * unloaded, and ending a worker that loaded it (`terminate()`, `process.exit()` in it)
 * kills the whole process with SIGSEGV, on every Node line.
 */
export const WORKER_REFUSAL = `${PACKAGE}@1 crashes the process (SIGSEGV) when a worker thread that loaded it ends; load it on the main thread, or use @snappykit/napi in workers`;

// Loaded on first use, not at import, so a missing or broken prebuilt binary becomes an
// UNSUPPORTED rejection of createCodec that the bench can report; in a worker, never.
export const load = () => {
  if (!isMainThread) throw new SnappyError("unsupported", WORKER_REFUSAL);
  return loadBackend<NapiSnappyV1>(PACKAGE, import.meta.url);
};

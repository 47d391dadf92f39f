/**
 * snappykit adapter for `@napi-rs/snappy@1`: the 1.x line of the napi-rs binding of the
 * Rust `snap` crate, published before it was renamed to `snappy@7`.
 * @packageDocumentation
 */
import { isMainThread } from "node:worker_threads";
import { guardedCodec, type RawBackend, type SnappyCodec, SnappyError } from "@snappykit/core";
import { asBuffer, externalBuffersTransferable, loadBackend } from "@snappykit/core/node";

/** Short id of this adapter in reports and CLI filters. */
export const name = "napi-v1";

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
const load = () => {
  if (!isMainThread) throw new SnappyError("unsupported", WORKER_REFUSAL);
  return loadBackend<NapiSnappyV1>(PACKAGE, import.meta.url);
};

/**
 * Create a {@link SnappyCodec} backed by `@napi-rs/snappy@1` (native).
 *
 * `uncompress` runs `checkUncompressedLength` first (maxLength and the 64/3 expansion
 * bound), because the binding allocates whatever the preamble claims; `snap` itself then
 * rejects every malformed stream, including one whose output length differs from the
 * preamble. There is no async API: the library's async `compress` and `uncompress` never
 * release the input Buffer they are given (compress: apps/fuzz/docs/findings.md; uncompress:
 * src/index.test.ts), so every call would keep its input, or the copy the contract needs,
 * for the life of the process.
 * Outputs are the binding's own `Buffer`s: the adapter adds no copy (the library's own
 * `compress` wrapper copies the input with `Buffer.from`).
 * @throws SnappyError `UNSUPPORTED` when the native binding cannot be loaded, or in a
 *   worker thread ({@link WORKER_REFUSAL}).
 */
export async function createCodec(): Promise<SnappyCodec> {
  const { module: binding, library } = load();
  // Its outputs are Node-API external buffers, which Node 22 and later (and Bun) cannot
  // transfer (DataCloneError) and Node 20 copies when asked to: so each is copied, as
  // results must be transferable. Bun
  // gives an empty output a detached buffer that cannot even be copied: a fresh empty array.
  const own = externalBuffersTransferable(() => binding.compressSync(new Uint8Array(1)))
    ? (b: Buffer): Uint8Array => b
    : (b: Buffer): Uint8Array => (b.length === 0 ? new Uint8Array(0) : new Uint8Array(b));
  return guardedCodec({
    name,
    library,
    runtime: "native",
    guard: "length",
    // Each call's output is a Buffer of its own, exactly its length.
    freshOutput: true,
    compress: (input) => own(binding.compressSync(input)),
    uncompress: (input) => own(binding.uncompressSync(asBuffer(input))),
  });
}

/**
 * `@napi-rs/snappy@1` called directly, for the bench and the fuzzer: no length guard, no
 * error mapping; `uncompress` only views its input as a `Buffer`. Never use it on
 * untrusted input. Refused in a worker thread, like {@link createCodec}.
 */
export async function createRaw(): Promise<RawBackend> {
  const { module: binding, library } = load();
  return {
    library,
    compress: (input) => binding.compressSync(input),
    uncompress: (input) => binding.uncompressSync(asBuffer(input)),
  };
}

/**
 * snappykit adapter for `@napi-rs/snappy@1`: the 1.x line of the napi-rs binding of the
 * Rust `snap` crate, published before it was renamed to `snappy@7`.
 * @packageDocumentation
 */
import { guardedCodec, type SnappyCodec } from "@snappykit/core";
import { asBuffer, externalBuffersTransferable } from "@snappykit/core/node";
import { load, WORKER_REFUSAL } from "./load.js";

export { WORKER_REFUSAL };

/** Short id of this adapter in reports and CLI filters. */
export const name = "napi-v1";

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

/**
 * snappykit adapter for `@napi-rs/snappy@1`: the 1.x line of the napi-rs binding of the
 * Rust `snap` crate, published before it was renamed to `snappy@7`.
 * @packageDocumentation
 */
import { guardedCodec, type RawBackend, type SnappyCodec } from "@snappykit/core";
import { asBuffer, externalBuffersTransferable, loadBackend } from "@snappykit/core/node";

/** Short id of this adapter in reports and CLI filters. */
export const name = "napi-v1";

const PACKAGE = "@napi-rs/snappy";

/** The part of `@napi-rs/snappy@1`'s API this adapter uses (from its index.d.ts). */
interface NapiSnappyV1 {
  compressSync(input: Uint8Array): Buffer;
  uncompressSync(compressed: Buffer): Buffer;
  uncompress(compressed: Buffer): Promise<Buffer>;
}

// Loaded on first use, not at import, so a missing or broken prebuilt binary becomes an
// UNSUPPORTED rejection of createCodec that the bench can report.
const load = () => loadBackend<NapiSnappyV1>(PACKAGE, import.meta.url);

/**
 * Create a {@link SnappyCodec} backed by `@napi-rs/snappy@1` (native).
 *
 * `uncompress` runs `checkUncompressedLength` first (maxLength and the 64/3 expansion
 * bound), because the binding allocates whatever the preamble claims; `snap` itself then
 * rejects every malformed stream, including one whose output length differs from the
 * preamble. `uncompressAsync` runs the same work on libuv's thread pool. There is no
 * `compressAsync`: the library's async `compress` never frees its copy of the input (64 KiB
 * kept per 64 KiB call; apps/fuzz/docs/findings.md), so the adapter does not offer it.
 * Outputs are the binding's own `Buffer`s: the adapter adds no copy (the library's own
 * `compress` wrapper copies the input with `Buffer.from`).
 * @throws SnappyError `UNSUPPORTED` when the native binding cannot be loaded.
 */
export async function createCodec(): Promise<SnappyCodec> {
  const { module: binding, library } = load();
  // Its outputs are Node-API external buffers, which Node 22 and later (and Bun) cannot
  // transfer (DataCloneError): there each is copied, as results must be transferable. Bun
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
    // uncompress() reads the input on the thread pool after it returns (see @snappykit/napi).
    asyncBorrowsInput: true,
    compress: (input) => own(binding.compressSync(input)),
    uncompress: (input) => own(binding.uncompressSync(asBuffer(input))),
    uncompressAsync: async (input) => own(await binding.uncompress(asBuffer(input))),
  });
}

/**
 * `@napi-rs/snappy@1` called directly, for the bench and the fuzzer: no length guard, no
 * error mapping; `uncompress` only views its input as a `Buffer`. Never use it on
 * untrusted input.
 */
export async function createRaw(): Promise<RawBackend> {
  const { module: binding, library } = load();
  return {
    library,
    compress: (input) => binding.compressSync(input),
    uncompress: (input) => binding.uncompressSync(asBuffer(input)),
    uncompressAsync: (input) => binding.uncompress(asBuffer(input)),
  };
}

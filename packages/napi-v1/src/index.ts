/**
 * snappykit adapter for `@napi-rs/snappy@1`: the 1.x line of the napi-rs binding of the
 * Rust `snap` crate, published before it was renamed to `snappy@7`.
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
import { asBuffer, installedLibrary } from "@snappykit/core/node";

/** Short id of this adapter in reports and CLI filters. */
export const name = "napi-v1";

const PACKAGE = "@napi-rs/snappy";

/** The part of `@napi-rs/snappy@1`'s API this adapter uses (from its index.d.ts). */
interface NapiSnappyV1 {
  compressSync(input: Uint8Array): Buffer;
  compress(input: Uint8Array): Promise<Buffer>;
  uncompressSync(compressed: Buffer): Buffer;
  uncompress(compressed: Buffer): Promise<Buffer>;
}

// Loaded on first use, not at import, so a missing or broken prebuilt binary becomes an
// UNSUPPORTED rejection of createCodec that the bench can report.
function load(): { library: string; binding: NapiSnappyV1 } {
  try {
    const binding = createRequire(import.meta.url)(PACKAGE) as NapiSnappyV1;
    return { library: installedLibrary(PACKAGE, import.meta.url), binding };
  } catch (error) {
    throw toSnappyError(error, `${PACKAGE} failed to load`, "UNSUPPORTED");
  }
}

/**
 * Create a {@link SnappyCodec} backed by `@napi-rs/snappy@1` (native).
 *
 * `uncompress` runs `checkUncompressedLength` first (maxLength and the 64/3 expansion
 * bound), because the binding allocates whatever the preamble claims; `snap` itself then
 * rejects every malformed stream, including one whose output length differs from the
 * preamble. `compressAsync`/`uncompressAsync` run the same work on libuv's thread pool.
 * Outputs are the binding's own `Buffer`s: the adapter adds no copy (the library's own
 * `compress` wrapper copies the input with `Buffer.from`).
 * @throws SnappyError `UNSUPPORTED` when the native binding cannot be loaded.
 */
export async function createCodec(): Promise<SnappyCodec> {
  const { library, binding } = load();
  const compressFailed = `${library} failed to compress`;
  const rejected = `${library} rejected the stream`;
  return {
    contractVersion: 1,
    name,
    library,
    runtime: "native",
    compress(input: Uint8Array): Uint8Array {
      assertBytes(input);
      try {
        return binding.compressSync(input);
      } catch (error) {
        throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
      }
    },
    uncompress(input: Uint8Array, options?: UncompressOptions): Uint8Array {
      checkUncompressedLength(input, options);
      try {
        return binding.uncompressSync(asBuffer(input));
      } catch (error) {
        throw toSnappyError(error, rejected);
      }
    },
    async compressAsync(input: Uint8Array): Promise<Uint8Array> {
      assertBytes(input);
      try {
        return await binding.compress(input);
      } catch (error) {
        throw toSnappyError(error, compressFailed, "BACKEND_ERROR");
      }
    },
    async uncompressAsync(input: Uint8Array, options?: UncompressOptions): Promise<Uint8Array> {
      checkUncompressedLength(input, options);
      try {
        return await binding.uncompress(asBuffer(input));
      } catch (error) {
        throw toSnappyError(error, rejected);
      }
    },
  };
}

/**
 * `@napi-rs/snappy@1` called directly, for the bench and the fuzzer: no length guard, no
 * error mapping; `uncompress` only views its input as a `Buffer`. Never use it on
 * untrusted input.
 */
export async function createRaw(): Promise<RawBackend> {
  const { library, binding } = load();
  return {
    library,
    compress: (input) => binding.compressSync(input),
    uncompress: (input) => binding.uncompressSync(asBuffer(input)),
  };
}

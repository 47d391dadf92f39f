import { createRequire } from "node:module";
import {
  assertBytes,
  checkUncompressedLength,
  type RawBackend,
  type SnappyCodec,
  SnappyError,
  toSnappyError,
  type UncompressOptions,
} from "@snappykit/core";
import { installedLibrary } from "@snappykit/core/node";

type SnappyModule = typeof import("snappy");

/** Options for {@link createCodec}. */
export interface NapiCodecOptions {
  /**
   * Copy compressed output into a V8-owned buffer instead of handing back Rust's buffer as an
   * external one. External buffers are freed by finalizers on the event loop and fresh pages
   * made `compressSync` erratic (38–259 µs vs 12–36 µs on 64 KiB of repeating text).
   * @default true
   */
  copyCompressOutput?: boolean;
  /**
   * The same for decompressed output. Copying costs a memcpy of the whole output (1 MiB
   * random: ~1.2 ms copied vs ~0.3 ms external), so it is off by default.
   * @default false
   */
  copyUncompressOutput?: boolean;
}

const require = createRequire(import.meta.url);

function load(): SnappyModule {
  try {
    return require("snappy") as SnappyModule;
  } catch (error) {
    throw toSnappyError(error, "snappy@7 native binding failed to load", "UNSUPPORTED");
  }
}

/**
 * A {@link SnappyCodec} over `snappy@7`, the napi-rs binding of Rust `snap`, with its
 * thread-pool `compress`/`uncompress` as `compressAsync`/`uncompressAsync`.
 */
export async function createCodec(options: NapiCodecOptions = {}): Promise<SnappyCodec> {
  const snappy = load();
  const library = installedLibrary("snappy", import.meta.url);
  const encode = { copyOutputData: options.copyCompressOutput ?? true };
  const decode = { asBuffer: true, copyOutputData: options.copyUncompressOutput ?? false };
  const rejected = `${library} rejected the stream`;
  return {
    contractVersion: 1,
    name: "napi",
    library,
    runtime: "native",
    compress(input) {
      assertBytes(input);
      try {
        return snappy.compressSync(input, encode);
      } catch (error) {
        throw toSnappyError(error, `${library} failed to compress`, "BACKEND_ERROR");
      }
    },
    uncompress(input: Uint8Array, opts?: UncompressOptions) {
      // snap allocates the declared length before validating: guard it first.
      checkUncompressedLength(input, opts);
      try {
        return snappy.uncompressSync(input, decode) as Buffer;
      } catch (error) {
        throw toSnappyError(error, rejected);
      }
    },
    async compressAsync(input) {
      assertBytes(input);
      try {
        return await snappy.compress(input, encode);
      } catch (error) {
        throw toSnappyError(error, `${library} failed to compress`, "BACKEND_ERROR");
      }
    },
    async uncompressAsync(input: Uint8Array, opts?: UncompressOptions) {
      checkUncompressedLength(input, opts);
      try {
        return (await snappy.uncompress(input, decode)) as Buffer;
      } catch (error) {
        throw toSnappyError(error, rejected);
      }
    },
  };
}

/**
 * The codec with the other output-copy choices, for the bench to show what the defaults
 * buy: `napi-external` never copies, `napi-copy` always does.
 */
export async function createVariants(): Promise<SnappyCodec[]> {
  const external = await createCodec({ copyCompressOutput: false, copyUncompressOutput: false });
  const copy = await createCodec({ copyCompressOutput: true, copyUncompressOutput: true });
  return [
    { ...external, name: "napi-external" },
    { ...copy, name: "napi-copy" },
  ];
}

/** `snappy@7` called directly with its defaults: no guards, no copy options. */
export async function createRaw(): Promise<RawBackend> {
  const snappy = load();
  return {
    library: installedLibrary("snappy", import.meta.url),
    compress: (input) => snappy.compressSync(input),
    uncompress: (input) => snappy.uncompressSync(input, { asBuffer: true }) as Buffer,
  };
}

export { SnappyError };

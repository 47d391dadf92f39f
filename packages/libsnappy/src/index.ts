/**
 * snappykit adapter for `snappy@6`: the NAN binding of Google's C++ libsnappy 1.1.7,
 * compiled by node-gyp at install. The bench's reference codec.
 * @packageDocumentation
 */
import { guardedCodec, refuseWrappingLiterals, type SnappyCodec } from "@snappykit/core";
import { asBuffer } from "@snappykit/core/node";
import { AS_BUFFER, type Callback, load } from "./load.js";

/** Short id of this adapter in reports and CLI filters. */
export const name = "libsnappy";

/** `input` as a Buffer, after refusing a literal length libsnappy would wrap to 0. */
function unwrapped(input: Uint8Array, length: number): Buffer {
  refuseWrappingLiterals(input, length);
  return asBuffer(input);
}

function settle(resolve: (value: Buffer) => void, reject: (error: unknown) => void): Callback {
  return (error, result) =>
    result && !error ? resolve(result) : reject(error ?? new Error("no result"));
}

/**
 * Create a {@link SnappyCodec} backed by `snappy@6` (Google's libsnappy 1.1.7, native).
 *
 * libsnappy reserves and zero-fills the length a stream's preamble declares before
 * decoding (4 GiB for a 5-byte preamble), so `uncompress` runs `checkUncompressedLength`
 * first (maxLength and the 64/3 expansion bound), and core's validator walks any input
 * holding a literal length libsnappy would wrap to 0; libsnappy rejects everything else,
 * including output shorter than declared. The binding only takes `Buffer`s: plain
 * `Uint8Array`s are viewed as one without copying. `compressAsync`/`uncompressAsync` wrap
 * its callback API, which runs on libuv's thread pool.
 * @throws SnappyError `UNSUPPORTED` when the native binding cannot be loaded.
 */
export async function createCodec(): Promise<SnappyCodec> {
  const { module: binding, library } = load();
  return guardedCodec({
    name,
    library,
    runtime: "native",
    guard: "length",
    // Each call's output is a Buffer of its own, exactly its length.
    freshOutput: true,
    compress: (input) => binding.compressSync(asBuffer(input)),
    uncompress: (input, length) => binding.uncompressSync(unwrapped(input, length), AS_BUFFER),
    compressAsync: (input) =>
      new Promise<Buffer>((resolve, reject) =>
        binding.compress(asBuffer(input), settle(resolve, reject)),
      ),
    uncompressAsync: (input, length) => {
      const buffer = unwrapped(input, length);
      return new Promise<Buffer>((resolve, reject) =>
        binding.uncompress(buffer, AS_BUFFER, settle(resolve, reject)),
      );
    },
  });
}

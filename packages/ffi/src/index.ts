/**
 * snappykit adapter for Google's libsnappy called through the runtime's own FFI (`node:ffi`
 * on Node 26, `bun:ffi`, `Deno.dlopen`): snappy-c.h's functions on the caller's memory, no
 * binding in between.
 * @packageDocumentation
 */
import { guardedCodec, type SnappyCodec } from "@snappykit/core";
import { callsOf, type FfiCodecOptions, open } from "./calls.js";
import { LIBRARY_ENV, VERSION_ENV } from "./library.js";

export { type FfiCodecOptions, LIBRARY_ENV, VERSION_ENV };

/** Short id of this adapter in reports and CLI filters. */
export const name = "ffi";

/**
 * A {@link SnappyCodec} over libsnappy's C API through this runtime's FFI: `node:ffi`
 * (Node 26, experimental), `bun:ffi` or `Deno.dlopen`. libsnappy decodes into an array of
 * the length the caller gives it and rejects every bad stream itself, so the codec runs the
 * length guard (maxLength and the expansion bound) before it allocates the declared
 * length; every length libsnappy is told is the array's own. A literal length libsnappy
 * wraps to 0 (`fc ff ff ff ff`) is refused by core's walk first. `uncompressInto` hands
 * libsnappy the caller's array (no copy); there is no `compressInto`, since libsnappy writes
 * past the end of its output, and `compress` copies its result out of a buffer of
 * `maxCompressedLength` bytes.
 * @throws SnappyError `UNSUPPORTED` when the runtime has no FFI or no libsnappy opens (the
 *   message says which), `INVALID_ARGUMENT` for an unknown option.
 */
export async function createCodec(options?: FfiCodecOptions): Promise<SnappyCodec> {
  const { library, c } = await open(options);
  const calls = callsOf(c);
  return guardedCodec({
    name,
    library,
    runtime: "native",
    guard: "length",
    compress: calls.compress,
    uncompress: calls.uncompress,
    uncompressInto: calls.uncompressInto,
  });
}

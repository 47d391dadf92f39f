import type { RawBackend } from "@snappykit/core";
import { callsOf, type FfiCodecOptions, open } from "./calls.js";

/**
 * libsnappy through the FFI with no guard and no error mapping, for the bench and the
 * fuzzer: `uncompress` allocates whatever length the stream declares (4 GiB for a 5-byte
 * preamble). Never use it on untrusted input.
 */
export async function createRaw(options?: FfiCodecOptions): Promise<RawBackend> {
  const { library, c } = await open(options);
  return { library, ...callsOf(c).raw };
}

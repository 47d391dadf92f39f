import type { RawBackend } from "@snappykit/core";
import { compress, library, uncompress } from "./index.js";

/**
 * The bare functions, for the bench and the fuzzer. The same functions as `createCodec`'s:
 * this codec has no unguarded mode.
 */
export async function createRaw(): Promise<RawBackend> {
  return { library, compress, uncompress };
}

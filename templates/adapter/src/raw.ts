// The `./raw` entry: the backend without the adapter's guards, for the bench and the fuzzer,
// kept off the main entry so users never meet it beside the codec.
import type { RawBackend } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";

/** `BACKEND_PACKAGE` called directly, without guards: for the bench and the fuzzer only. */
export async function createRaw(): Promise<RawBackend> {
  const { module: backend, library } = loadBackend<typeof import("BACKEND_PACKAGE")>(
    "BACKEND_PACKAGE",
    import.meta.url,
  );
  return {
    library,
    compress: (input) => backend.compress(input),
    uncompress: (input) => backend.uncompress(input),
  };
}

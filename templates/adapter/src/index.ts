// Template adapter. scripts/new-adapter.mjs fills ADAPTER_ID, BACKEND_PACKAGE and
// BACKEND_VERSION; then adapt the calls below to the backend's API. Keep it thin: load,
// convert at the edge, pick the guard. guardedCodec does the rest of the contract.
import { guardedCodec, type SnappyCodec } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";

// A backend without types: add src/BACKEND_PACKAGE.d.ts declaring the calls used here.
type Library = typeof import("BACKEND_PACKAGE");

/**
 * A {@link SnappyCodec} over `BACKEND_PACKAGE`.
 *
 * Say what the backend does with bad input and why the guard below is the one it needs.
 */
export async function createCodec(): Promise<SnappyCodec> {
  const { module: backend, library } = loadBackend<Library>("BACKEND_PACKAGE", import.meta.url);
  return guardedCodec({
    name: "ADAPTER_ID",
    library,
    runtime: "js", // "native" | "wasm" | "js"
    // "stream": validate the whole stream first (backend trusts its input);
    // "length": only bound the declared length (backend rejects bad streams itself).
    guard: "stream",
    compress: (input) => backend.compress(input),
    uncompress: (input) => backend.uncompress(input),
  });
}

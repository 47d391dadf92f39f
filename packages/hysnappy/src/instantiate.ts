import { snappyCompressor, snappyUncompressor } from "hysnappy";
// The version of the copy actually loaded, read without Node APIs so that the adapter
// bundles for browsers (JSON import attributes: Node 20.10+, Bun, Deno, bundlers).
import pkg from "hysnappy/package.json" with { type: "json" };

// One wasm instance per direction for the life of a codec (index.ts) or raw backend
// (raw.ts): hysnappy's one-shot snappyCompress/snappyUncompress rebuild the module on
// every call.
export function instantiate() {
  return {
    library: `${pkg.name}@${pkg.version}`,
    compress: snappyCompressor(),
    uncompress: snappyUncompressor(),
  };
}

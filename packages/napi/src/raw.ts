import type { RawBackend } from "@snappykit/core";
import { loadBackend } from "@snappykit/core/node";

/** `snappy@7` called directly with its defaults: no guards, no copy options, no input copy. */
export async function createRaw(): Promise<RawBackend> {
  const { module: snappy, library } = loadBackend<typeof import("snappy")>(
    "snappy",
    import.meta.url,
  );
  return {
    library,
    compress: (input) => snappy.compressSync(input),
    uncompress: (input) => snappy.uncompressSync(input, { asBuffer: true }) as Buffer,
    compressAsync: (input) => snappy.compress(input),
    uncompressAsync: async (input) =>
      (await snappy.uncompress(input, { asBuffer: true })) as Buffer,
  };
}

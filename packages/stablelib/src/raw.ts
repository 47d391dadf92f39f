import type { RawBackend } from "@snappykit/core";
import { compress, decompress } from "@stablelib/snappy";
import pkg from "@stablelib/snappy/package.json" with { type: "json" };

const library = `${pkg.name}@${pkg.version}`;

/**
 * `@stablelib/snappy` called directly, for the bench and the fuzzer. No guards: never
 * use it on untrusted input.
 */
export async function createRaw(): Promise<RawBackend> {
  return {
    library,
    compress: (input) => compress(input),
    uncompress: (input) => decompress(input),
  };
}

import type { RawBackend } from "@snappykit/core";
import snappyjs from "snappyjs";
import pkg from "snappyjs/package.json" with { type: "json" };

const library = `${pkg.name}@${pkg.version}`;

/** snappyjs called directly: no validation, no length limit. */
export async function createRaw(): Promise<RawBackend> {
  return {
    library,
    compress: (input) => snappyjs.compress(input),
    uncompress: (input) => snappyjs.uncompress(input),
  };
}

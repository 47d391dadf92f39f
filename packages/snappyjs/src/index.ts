import { createRequire } from "node:module";
import {
  assertBytes,
  type RawBackend,
  type SnappyCodec,
  toSnappyError,
  type UncompressOptions,
  validateCompressed,
} from "@snappykit/core";
import { installedLibrary } from "@snappykit/core/node";

type SnappyJs = typeof import("snappyjs");

const require = createRequire(import.meta.url);

/**
 * A {@link SnappyCodec} over `snappyjs`, pure JavaScript (Lodestar's gossip codec).
 *
 * snappyjs never checks its output against the preamble: it zero-fills truncated streams,
 * allocates whatever the preamble claims and can loop for minutes on a 6-byte input. So
 * every stream is proven valid by `validateCompressed` (one pass over the tags) before
 * snappyjs sees it.
 */
export async function createCodec(): Promise<SnappyCodec> {
  const snappyjs = require("snappyjs") as SnappyJs;
  const library = installedLibrary("snappyjs", import.meta.url);
  return {
    contractVersion: 1,
    name: "snappyjs",
    library,
    runtime: "js",
    compress(input) {
      assertBytes(input);
      try {
        return snappyjs.compress(input);
      } catch (error) {
        throw toSnappyError(error, `${library} failed to compress`, "BACKEND_ERROR");
      }
    },
    uncompress(input: Uint8Array, options?: UncompressOptions) {
      validateCompressed(input, options);
      try {
        return snappyjs.uncompress(input);
      } catch (error) {
        // Unreachable for a validated stream, but never let a plain Error escape.
        throw toSnappyError(error, `${library} rejected the stream`);
      }
    },
  };
}

/** snappyjs called directly: no validation, no length limit. */
export async function createRaw(): Promise<RawBackend> {
  const snappyjs = require("snappyjs") as SnappyJs;
  return {
    library: installedLibrary("snappyjs", import.meta.url),
    compress: (input) => snappyjs.compress(input),
    uncompress: (input) => snappyjs.uncompress(input),
  };
}

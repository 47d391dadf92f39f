// conformance's legal-form streams (every length and copy form, not only what encoders
// write) inside framed compressed chunks, on framing's codecs: the framed path of issue-43's
// "every legal form on every path" (@snappykit/p2p's tests take the ssz_snappy path).
import { legalForms } from "@snappykit/conformance/cases";
import { describe, it } from "vitest";
import {
  ChunkType,
  decodeFramed,
  MAX_CHUNK_DATA,
  MAX_COMPRESSED_CHUNK_LENGTH,
  STREAM_IDENTIFIER,
} from "./index.js";
import { chunk, codecs, concat, crcOf, decodeInSteps, expectBytes } from "./test/helpers.js";

// A chunk carries at most 64 KiB of output, within the compressed chunk bound (the longest
// legal streams for 64 KiB are longer than that bound, and so stay block-only here).
const framable = legalForms().filter(
  (c) => c.expected.length <= MAX_CHUNK_DATA && 4 + c.stream.length <= MAX_COMPRESSED_CHUNK_LENGTH,
);
const framed = (stream: Uint8Array, expected: Uint8Array) =>
  concat(STREAM_IDENTIFIER, chunk(ChunkType.compressed, concat(crcOf(expected), stream)));

describe.each(codecs)("every legal form, framed, with $name", (codec) => {
  it("decodes in one call and fed in 7-byte steps", () => {
    for (const { name, stream, expected } of framable) {
      const bytes = framed(stream, expected);
      expectBytes(decodeFramed(codec, bytes), expected, name);
      expectBytes(decodeInSteps(codec, bytes, 7), expected, name);
    }
  });
});

// conformance's legal-form streams (every length and copy form, not only what encoders
// write) inside framed compressed chunks and ssz_snappy payloads, on framing's codecs: the
// framed and ssz_snappy paths of issue-43's "every legal form on every path".
import { legalForms } from "@snappykit/conformance/cases";
import { encodeVarint, maxCompressedLength } from "@snappykit/core";
import { describe, it } from "vitest";
import {
  ChunkType,
  decodeFramed,
  decodeSszSnappy,
  MAX_CHUNK_DATA,
  MAX_COMPRESSED_CHUNK_LENGTH,
  MAX_PAYLOAD_SIZE,
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

  it("decodes as ssz_snappy payloads within max_compressed_len(n)", async () => {
    // The spec's budget: a reader reads at most max_compressed_len(n) framed bytes, so the
    // longest legal streams are no ssz_snappy payloads; an empty payload is a policy of its own.
    const bounds = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE };
    for (const { name, stream, expected } of framable) {
      const body = framed(stream, expected);
      if (expected.length === 0 || body.length > maxCompressedLength(expected.length)) continue;
      const payload = concat(encodeVarint(expected.length), body);
      expectBytes(decodeSszSnappy(codec, payload, bounds), expected, name);
    }
  });
});

// Chunk-level rules of Google's framing_format.txt (revision 2013-10-25), shared by the one-shot,
// streaming and chunk-level paths (chunks.ts: ssz_snappy in @snappykit/p2p), so every path
// accepts and rejects exactly the same streams.
import {
  maxCompressedLength,
  readUncompressedLength,
  type SnappyCodec,
  SnappyError,
  type SnappyErrorDetails,
  type SnappyErrorReason,
  withContext,
} from "@snappykit/core";
import { type Crc32cFunction, maskChecksum } from "./crc32c.js";

/** Chunk type bytes (§4). 0x02–0x7f are reserved unskippable, 0x80–0xfd reserved skippable. */
export const ChunkType = {
  compressed: 0x00,
  uncompressed: 0x01,
  padding: 0xfe,
  streamIdentifier: 0xff,
} as const;

/** Chunk types from here up (to 0xfd) are reserved skippable, below it unskippable (§4.5, §4.6). */
const FIRST_SKIPPABLE_TYPE = 0x80;

/** Every chunk starts with a header: 1 type byte, then the body length, 24-bit little-endian (§1). */
export const CHUNK_HEADER_SIZE = 4;

/** A data chunk's body starts with the masked CRC-32C of its uncompressed data (§3, §4.2, §4.3). */
export const CHECKSUM_SIZE = 4;

/** The stream identifier chunk's body (§4.1). */
const IDENTIFIER_BODY = Uint8Array.of(0x73, 0x4e, 0x61, 0x50, 0x70, 0x59); // "sNaPpY"

/** The stream identifier chunk every framed stream starts with: `ff 06 00 00 "sNaPpY"` (§4.1). */
export const STREAM_IDENTIFIER: Uint8Array = Uint8Array.of(
  ChunkType.streamIdentifier,
  IDENTIFIER_BODY.length,
  0,
  0,
  ...IDENTIFIER_BODY,
);

/** Most uncompressed bytes one data chunk may carry (§4.2, §4.3). */
export const MAX_CHUNK_DATA = 65536;

/**
 * Longest preamble of a block: the varint of a 32-bit length takes at most 5 bytes (padded
 * forms included).
 */
const MAX_PREAMBLE = 5;

/**
 * Most bytes a block element takes per byte it produces: a one-byte literal in the longest
 * length form (tag, 4 length bytes, the byte). Every element produces at least one byte.
 */
const MAX_ELEMENT_BYTES_PER_BYTE = 6;

/**
 * Longest compressed-chunk body accepted: CRC + the longest valid block that decodes to at most
 * 65,536 bytes (5 + 6 × 65,536), 393,225 bytes. §4.2 lets the compressed data run to 2^24 - 5
 * bytes and caps only the uncompressed data at 65,536; a longer body cannot hold a valid block
 * within that cap, so refusing it from the header refuses no valid stream and bounds what a
 * decoder buffers.
 */
export const MAX_COMPRESSED_CHUNK_LENGTH =
  CHECKSUM_SIZE + MAX_PREAMBLE + MAX_ELEMENT_BYTES_PER_BYTE * MAX_CHUNK_DATA;

/**
 * Longest compressed-chunk body an encoder writes: CRC + `maxCompressedLength(65536)` (76,494
 * bytes). Not a limit: what a streaming decoder's buffer holds before it needs to grow.
 */
export const ENCODED_CHUNK_LENGTH = CHECKSUM_SIZE + maxCompressedLength(MAX_CHUNK_DATA);

/** Longest uncompressed-chunk body: CRC + 65,536 data bytes (§4.3). */
export const MAX_UNCOMPRESSED_CHUNK_LENGTH = CHECKSUM_SIZE + MAX_CHUNK_DATA;

/** What a decoder does with a chunk, decided from its header alone. */
export type ChunkKind = "compressed" | "uncompressed" | "identifier" | "skip";

const hex = (n: number) => `0x${n.toString(16).padStart(2, "0")}`;

/** A SnappyError naming the stream offset of the offending chunk (also as its `at`). */
export function corrupt(
  reason: SnappyErrorReason,
  message: string,
  at: number,
  details?: SnappyErrorDetails,
): SnappyError {
  return new SnappyError(reason, `${message} (chunk at byte ${at})`, { at, ...details });
}

/**
 * Validate a chunk header and say how to treat the chunk. `first` is true for the stream's first
 * chunk, which must be the stream identifier (§1, §4.1).
 */
export function classifyChunk(type: number, length: number, at: number, first: boolean): ChunkKind {
  if (first && type !== ChunkType.streamIdentifier) {
    throw corrupt(
      "bad-stream-identifier",
      `framed stream must start with the stream identifier (ff 06 00 00 sNaPpY), found chunk type ${hex(type)}`,
      at,
      { chunkType: type },
    );
  }
  switch (type) {
    case ChunkType.compressed:
    case ChunkType.uncompressed: {
      const kind = type === ChunkType.compressed ? "compressed" : "uncompressed";
      if (length < CHECKSUM_SIZE) {
        throw corrupt(
          "chunk-too-short",
          `${kind} chunk of ${length} bytes has no room for its CRC`,
          at,
          {
            length,
            chunkType: type,
          },
        );
      }
      const limit =
        kind === "compressed" ? MAX_COMPRESSED_CHUNK_LENGTH : MAX_UNCOMPRESSED_CHUNK_LENGTH;
      if (length > limit) {
        throw corrupt(
          "oversize-chunk",
          kind === "compressed"
            ? `oversize compressed chunk: ${length} bytes, over the ${limit} that a block of at most ${MAX_CHUNK_DATA} bytes can take`
            : `oversize uncompressed chunk: ${length - CHECKSUM_SIZE} data bytes, over the limit of ${MAX_CHUNK_DATA}`,
          at,
          { length, limit, chunkType: type },
        );
      }
      return kind;
    }
    case ChunkType.streamIdentifier:
      if (length !== IDENTIFIER_BODY.length) {
        throw corrupt(
          "bad-stream-identifier",
          `stream identifier chunk has length ${length}, not ${IDENTIFIER_BODY.length}`,
          at,
          { length, chunkType: type },
        );
      }
      return "identifier";
    default:
      // §4.5: reserved unskippable chunks must stop the decoder; §4.4/§4.6: padding and reserved
      // skippable chunks must be skipped unread.
      if (type < FIRST_SKIPPABLE_TYPE) {
        throw corrupt(
          "reserved-unskippable-chunk",
          `reserved unskippable chunk type ${hex(type)}`,
          at,
          {
            chunkType: type,
          },
        );
      }
      return "skip";
  }
}

/** Options every decoder takes for one chunk. */
export interface ChunkDecodeContext {
  readonly codec: SnappyCodec;
  readonly verifyChecksums: boolean;
  readonly crc32c: Crc32cFunction;
}

/** The body length in the chunk header at `pos` of `bytes` (its type is `bytes[pos]`). */
export const readChunkLength = (bytes: Uint8Array, pos: number): number =>
  bytes[pos + 1]! | (bytes[pos + 2]! << 8) | (bytes[pos + 3]! << 16);

export const readU32LE = (b: Uint8Array, i: number): number =>
  (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

/**
 * Decode the body of a data chunk, or check an identifier chunk. Returns the chunk's
 * uncompressed bytes (for an uncompressed chunk, a view into `body`: the caller copies it
 * before it leaves the library), or `undefined` for an
 * identifier. `budget` is how many more bytes the caller accepts; `overBudget` builds the error
 * thrown, before decompressing, when the chunk would exceed it. With `into`, the data is
 * written to the array `into(size)` gives (decoded in place when the codec can) and that
 * array is returned.
 */
export function decodeChunkBody(
  ctx: ChunkDecodeContext,
  kind: Exclude<ChunkKind, "skip">,
  body: Uint8Array,
  at: number,
  budget: number,
  overBudget: (size: number) => SnappyError,
  into?: (size: number) => Uint8Array,
): Uint8Array | undefined {
  if (kind === "identifier") {
    for (let i = 0; i < IDENTIFIER_BODY.length; i++) {
      if (body[i] !== IDENTIFIER_BODY[i]) {
        throw corrupt(
          "bad-stream-identifier",
          "stream identifier chunk does not contain sNaPpY",
          at,
        );
      }
    }
    return undefined;
  }
  const stored = readU32LE(body, 0);
  const payload = body.subarray(CHECKSUM_SIZE);
  let data: Uint8Array;
  if (kind === "uncompressed") {
    if (payload.length > budget) throw overBudget(payload.length);
    data = payload;
    if (into !== undefined) {
      data = into(payload.length);
      data.set(payload);
    }
  } else {
    let declared: number;
    try {
      declared = readUncompressedLength(payload).length;
    } catch (error) {
      throw wrap(error, "compressed chunk", at);
    }
    if (declared > MAX_CHUNK_DATA) {
      throw corrupt(
        "oversize-chunk",
        `oversize compressed chunk: declares ${declared} uncompressed bytes, over the limit of ${MAX_CHUNK_DATA}`,
        at,
        { declared, limit: MAX_CHUNK_DATA },
      );
    }
    if (declared > budget) throw overBudget(declared);
    try {
      if (into === undefined) {
        data = ctx.codec.uncompress(payload, { maxLength: MAX_CHUNK_DATA });
      } else {
        data = into(declared);
        if (ctx.codec.uncompressInto === undefined) data.set(ctx.codec.uncompress(payload));
        else data = data.subarray(0, ctx.codec.uncompressInto(payload, data));
      }
    } catch (error) {
      throw wrap(error, `compressed chunk (${ctx.codec.name})`, at);
    }
    if (data.length !== declared) {
      throw corrupt(
        "backend-rejected",
        `compressed chunk decoded to ${data.length} bytes, but declares ${declared}`,
        at,
        { declared, produced: data.length },
      );
    }
  }
  verifyChecksum(ctx, kind, stored, data, at);
  return data;
}

/** Throw `checksum-mismatch` unless `data` has the `stored` (masked) CRC-32C, when verifying. */
export function verifyChecksum(
  ctx: ChunkDecodeContext,
  kind: string,
  stored: number,
  data: Uint8Array,
  at: number,
): void {
  if (!ctx.verifyChecksums) return;
  const actual = maskChecksum(ctx.crc32c(data));
  if (actual !== stored) {
    throw new SnappyError(
      "checksum-mismatch",
      `${kind} chunk checksum mismatch: stored ${stored.toString(16).padStart(8, "0")}, computed ${actual.toString(16).padStart(8, "0")} over ${data.length} bytes (chunk at byte ${at})`,
      { at, expected: stored, actual, length: data.length },
    );
  }
}

/**
 * Re-throw a codec or varint failure as a SnappyError that names the chunk, keeping its reason
 * and numbers; `at` becomes the chunk's position in the stream. A codec classifies bad input
 * as a SnappyError, so anything else it throws is the codec's own failure, not the input's.
 */
function wrap(error: unknown, what: string, at: number): SnappyError {
  if (error instanceof SnappyError) return withContext(error, `${what} at byte ${at}`, { at });
  const detail = error instanceof Error ? error.message : String(error);
  return new SnappyError("backend-failed", `${what} at byte ${at}: ${detail}`, {
    cause: error,
    at,
  });
}

/** Write a chunk header (type + 24-bit little-endian length) at `pos`. */
export function writeChunkHeader(out: Uint8Array, pos: number, type: number, length: number): void {
  out[pos] = type;
  out[pos + 1] = length & 0xff;
  out[pos + 2] = (length >>> 8) & 0xff;
  out[pos + 3] = length >>> 16;
}

/** Write `value` as 4 little-endian bytes at `pos`. */
export function writeU32LE(out: Uint8Array, pos: number, value: number): void {
  out[pos] = value & 0xff;
  out[pos + 1] = (value >>> 8) & 0xff;
  out[pos + 2] = (value >>> 16) & 0xff;
  out[pos + 3] = value >>> 24;
}

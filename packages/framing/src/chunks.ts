// The framing format's chunk-level pieces, for protocols that frame payloads of their own
// (`ssz_snappy` in @snappykit/p2p): check a chunk header, decode a chunk's body into room the
// protocol provides, verify its checksum, and read exact byte counts from a ByteReader without
// a copy. The whole-stream API is the package's main entry; this one follows the format's
// internals and may change with them in a minor release.
export { resolveDecodeContext } from "./decode.js";
export { type EncoderSettings, encodeFramedAfter, resolveEncodeOptions } from "./encode.js";
export {
  CHECKSUM_SIZE,
  CHUNK_HEADER_SIZE,
  type ChunkDecodeContext,
  type ChunkKind,
  ChunkType,
  classifyChunk,
  decodeChunkBody,
  readChunkLength,
  readU32LE,
  verifyChecksum,
} from "./format.js";
export { ownOptions } from "./options.js";
export { readerInternals } from "./stream.js";

// crc32c.ts is public API as a whole: the functions, the native/TS choice, the masking.
export * from "./crc32c.js";
export { type DecodeFramedOptions, decodeFramed, FrameDecoder } from "./decode.js";
export { type EncodeFramedOptions, encodeFramed, FrameEncoder } from "./encode.js";
export {
  ChunkType,
  MAX_CHUNK_DATA,
  MAX_COMPRESSED_CHUNK_LENGTH,
  MAX_UNCOMPRESSED_CHUNK_LENGTH,
  STREAM_IDENTIFIER,
} from "./format.js";
export type { ByteChunk } from "./parts.js";
export {
  ByteReader,
  type ByteSource,
  createFrameDecoderStream,
  createFrameEncoderStream,
  decodeFramedStream,
  encodeFramedStream,
} from "./stream.js";

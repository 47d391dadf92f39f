export type {
  AdapterModule,
  CodecRuntime,
  RawBackend,
  SnappyCodec,
  UncompressOptions,
} from "./codec.js";
export { isSnappyError, SnappyError, type SnappyErrorCode, toSnappyError } from "./errors.js";
export { type BackendSpec, guardedCodec } from "./guarded.js";
export {
  assertBytes,
  assertOutputLength,
  checkOptions,
  checkUncompressedLength,
  DEFAULT_MAX_LENGTH,
  MAX_EXPANSION_RATIO,
  maxCompressedLength,
  maxExpandedLength,
  resolveMaxLength,
} from "./limits.js";
export { assertOutputSpace, concatBytes, ownedBytes, ownsBuffer } from "./output.js";
export { validateCompressed } from "./validate.js";
export {
  encodeUncompressedLength,
  encodeVarint,
  MAX_SNAPPY_LENGTH,
  readUncompressedLength,
  type UncompressedLength,
} from "./varint.js";

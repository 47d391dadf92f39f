export { bytesOf } from "./bytes.js";
export type {
  AdapterModule,
  CodecRuntime,
  RawBackend,
  SnappyCodec,
  UncompressOptions,
} from "./codec.js";
export {
  isSnappyError,
  REASON_CODES,
  SnappyError,
  type SnappyErrorCode,
  type SnappyErrorDetails,
  type SnappyErrorReason,
  toSnappyError,
  withContext,
} from "./errors.js";
export { type BackendSpec, guardedCodec } from "./guarded.js";
export {
  assertOutputLength,
  type CheckedInput,
  checkOptions,
  checkUncompressedLength,
  DEFAULT_MAX_LENGTH,
  MAX_EXPANSION_RATIO,
  maxCompressedLength,
  maxExpandedLength,
  resolveMaxLength,
} from "./limits.js";
export { concatBytes, outputSpace, ownedBytes, ownsBuffer } from "./output.js";
export { shortestLiterals, validateBody, validateCompressed } from "./validate.js";
export {
  encodeUncompressedLength,
  encodeVarint,
  MAX_SNAPPY_LENGTH,
  readUncompressedLength,
  type UncompressedLength,
} from "./varint.js";

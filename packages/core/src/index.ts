export { bytesOf } from "./bytes.js";
export type {
  AdapterModule,
  CodecRuntime,
  RawBackend,
  RawModule,
  SnappyCodec,
  UncompressOptions,
} from "./codec.js";
export {
  defineReasons,
  isSnappyError,
  REASON_CODES,
  REASONS,
  type ReasonSpec,
  SnappyError,
  type SnappyErrorCode,
  type SnappyErrorDetails,
  type SnappyErrorFault,
  type SnappyErrorFields,
  type SnappyErrorNumbers,
  type SnappyErrorReason,
  type SnappyErrorReasons,
  toSnappyError,
  withContext,
} from "./errors.js";
export {
  endsShort,
  literalPastInput,
  offsetPastOutput,
  offsetZero,
  overrunsDeclared,
  tagCut,
} from "./faults.js";
export { type BackendSpec, guardedCodec } from "./guarded.js";
// Every export of limits.ts is public: the bounds and the guards adapters run.
export * from "./limits.js";
export { concatBytes, outputRoom, outputSpace, ownedBytes, ownsBuffer } from "./output.js";
export {
  refuseWrappingLiterals,
  shortestLiterals,
  validateBody,
  validateCompressed,
} from "./validate.js";
export {
  encodeUncompressedLength,
  encodeVarint,
  MAX_SNAPPY_LENGTH,
  readUncompressedLength,
  type UncompressedLength,
} from "./varint.js";

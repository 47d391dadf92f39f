/**
 * Why a Snappy operation failed, coarsely. Codes are stable: match on them, not on messages;
 * {@link SnappyError.reason} says exactly what was wrong.
 *
 * - `CORRUPT_INPUT`: the compressed bytes are not a valid Snappy stream.
 * - `LENGTH_LIMIT`: the stream declares more output than the caller allowed.
 * - `CHECKSUM_MISMATCH`: a framed chunk's CRC-32C does not match its data.
 * - `UNSUPPORTED`: the backend cannot do this here (failed to load, missing feature).
 * - `INVALID_ARGUMENT`: the caller passed something that is not a byte array or a bad option.
 * - `OUTPUT_TOO_SMALL`: the caller's output array for `compressInto`/`uncompressInto` is
 *   shorter than the operation needs; nothing was written.
 * - `BACKEND_ERROR`: the backend failed in a way snappykit could not classify.
 */
export type SnappyErrorCode =
  | "CORRUPT_INPUT"
  | "LENGTH_LIMIT"
  | "CHECKSUM_MISMATCH"
  | "UNSUPPORTED"
  | "INVALID_ARGUMENT"
  | "OUTPUT_TOO_SMALL"
  | "BACKEND_ERROR";

/**
 * Every reason a {@link SnappyError} names, with the {@link SnappyErrorCode} it belongs to.
 * A reason never changes its code; new reasons may be added (match with a `default`). The
 * README's table gives each reason's format or spec clause and its fields.
 */
export const REASON_CODES = {
  // The caller's arguments.
  "not-bytes": "INVALID_ARGUMENT",
  detached: "INVALID_ARGUMENT",
  "bad-options": "INVALID_ARGUMENT",
  "overlapping-output": "INVALID_ARGUMENT",
  "bad-argument": "INVALID_ARGUMENT",
  "output-too-small": "OUTPUT_TOO_SMALL",
  // The backend.
  unsupported: "UNSUPPORTED",
  "backend-failed": "BACKEND_ERROR",
  "backend-rejected": "CORRUPT_INPUT",
  // Lengths against the caller's limits.
  "length-over-limit": "LENGTH_LIMIT",
  "length-under-minimum": "CORRUPT_INPUT",
  // The raw (block) format.
  truncated: "CORRUPT_INPUT",
  "bad-preamble": "CORRUPT_INPUT",
  "length-over-expansion": "CORRUPT_INPUT",
  "literal-past-input": "CORRUPT_INPUT",
  "offset-zero": "CORRUPT_INPUT",
  "offset-past-output": "CORRUPT_INPUT",
  "output-overrun": "CORRUPT_INPUT",
  // The framing format.
  "checksum-mismatch": "CHECKSUM_MISMATCH",
  "bad-stream-identifier": "CORRUPT_INPUT",
  "reserved-unskippable-chunk": "CORRUPT_INPUT",
  "chunk-too-short": "CORRUPT_INPUT",
  "oversize-chunk": "CORRUPT_INPUT",
  // ssz_snappy (the consensus spec's req/resp encoding).
  "prefix-overlong": "CORRUPT_INPUT",
  "non-minimal-prefix": "CORRUPT_INPUT",
  "read-budget-exceeded": "CORRUPT_INPUT",
  "trailing-bytes": "CORRUPT_INPUT",
  // req/resp response chunks (@snappykit/p2p).
  "bad-result-code": "CORRUPT_INPUT",
  "unknown-context-bytes": "CORRUPT_INPUT",
  "too-many-chunks": "LENGTH_LIMIT",
} as const satisfies Record<string, SnappyErrorCode>;

/** Exactly what was wrong: see {@link REASON_CODES} and the README's table. */
export type SnappyErrorReason = keyof typeof REASON_CODES;

/**
 * The numbers behind a failure, as fields of the error (each present only where the reason
 * has it; the README's table says which).
 */
export interface SnappyErrorDetails {
  readonly cause?: unknown;
  /** Byte position in the input of the element, chunk or prefix at fault. */
  readonly at?: number;
  /** The length the stream (preamble, chunk or prefix) declares. */
  readonly declared?: number;
  /** The limit it was checked against (`maxLength`, `minSize`, a read budget, a chunk cap). */
  readonly limit?: number;
  /** A copy's offset. */
  readonly offset?: number;
  /** Output bytes produced before the fault. */
  readonly produced?: number;
  /** The length of the element or chunk at fault, or of the caller's array. */
  readonly length?: number;
  /** What was expected and what was found (a checksum, a byte count). */
  readonly expected?: number;
  readonly actual?: number;
  /** A framed chunk's type byte. */
  readonly chunkType?: number;
}

const DETAIL_KEYS = [
  "at",
  "declared",
  "limit",
  "offset",
  "produced",
  "length",
  "expected",
  "actual",
  "chunkType",
] as const satisfies readonly (keyof SnappyErrorDetails)[];

/** The only error type snappykit codecs throw for bad input or a backend failure. */
export class SnappyError extends Error implements Omit<SnappyErrorDetails, "cause"> {
  override readonly name = "SnappyError";
  /** Coarse, stable class of the failure; see {@link SnappyErrorCode}. */
  readonly code: SnappyErrorCode;
  /** Exactly what was wrong; see {@link SnappyErrorReason}. */
  readonly reason: SnappyErrorReason;
  declare readonly at?: number;
  declare readonly declared?: number;
  declare readonly limit?: number;
  declare readonly offset?: number;
  declare readonly produced?: number;
  declare readonly length?: number;
  declare readonly expected?: number;
  declare readonly actual?: number;
  declare readonly chunkType?: number;

  constructor(reason: SnappyErrorReason, message: string, details?: SnappyErrorDetails) {
    super(message, details && "cause" in details ? { cause: details.cause } : undefined);
    const code = REASON_CODES[reason] as SnappyErrorCode | undefined;
    if (code === undefined) throw new TypeError(`unknown SnappyError reason: ${String(reason)}`);
    this.code = code;
    this.reason = reason;
    if (details !== undefined) {
      for (const key of DETAIL_KEYS) {
        if (details[key] !== undefined) {
          Object.defineProperty(this, key, { value: details[key], enumerable: true });
        }
      }
    }
  }
}

/**
 * `error` again, its message prefixed with `context` (where it happened: a chunk, a backend),
 * its reason and numbers kept and `details` added (a position in the outer stream replaces
 * the inner one); the original is the `cause`.
 */
export function withContext(
  error: SnappyError,
  context: string,
  details?: SnappyErrorDetails,
): SnappyError {
  const kept: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) if (error[key] !== undefined) kept[key] = error[key];
  return new SnappyError(error.reason, `${context}: ${error.message}`, {
    ...kept,
    ...details,
    cause: details?.cause ?? error,
  });
}

/** True when `error` is a {@link SnappyError}, optionally with the given code. */
export function isSnappyError(error: unknown, code?: SnappyErrorCode): error is SnappyError {
  return error instanceof SnappyError && (code === undefined || error.code === code);
}

/** The reason {@link toSnappyError} gives a failure it cannot classify further, per code. */
const UNCLASSIFIED: Partial<Record<SnappyErrorCode, SnappyErrorReason>> = {
  CORRUPT_INPUT: "backend-rejected",
  BACKEND_ERROR: "backend-failed",
  UNSUPPORTED: "unsupported",
  INVALID_ARGUMENT: "bad-argument",
};

/**
 * Turn whatever a backend threw into a {@link SnappyError}, keeping the original as `cause`.
 * A `SnappyError` passes through unchanged; anything else becomes `code` (by default
 * `CORRUPT_INPUT`, since backends throw on bad input; reason `backend-rejected`, or
 * `backend-failed`, `unsupported`, `bad-argument` for those codes) with `context` and the
 * backend's message.
 */
export function toSnappyError(
  error: unknown,
  context: string,
  code: "CORRUPT_INPUT" | "BACKEND_ERROR" | "UNSUPPORTED" | "INVALID_ARGUMENT" = "CORRUPT_INPUT",
): SnappyError {
  if (error instanceof SnappyError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new SnappyError(UNCLASSIFIED[code]!, `${context}: ${detail}`, { cause: error });
}

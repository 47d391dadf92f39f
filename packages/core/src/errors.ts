/**
 * Why a Snappy operation failed. Codes are stable: match on them, not on messages.
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

/** The only error type snappykit codecs throw for bad input or a backend failure. */
export class SnappyError extends Error {
  override readonly name = "SnappyError";
  /** Machine-readable reason; see {@link SnappyErrorCode}. */
  readonly code: SnappyErrorCode;

  constructor(code: SnappyErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True when `error` is a {@link SnappyError}, optionally with the given code. */
export function isSnappyError(error: unknown, code?: SnappyErrorCode): error is SnappyError {
  return error instanceof SnappyError && (code === undefined || error.code === code);
}

/**
 * Turn whatever a backend threw into a {@link SnappyError}, keeping the original as `cause`.
 * A `SnappyError` passes through unchanged; anything else becomes `code` (by default
 * `CORRUPT_INPUT`, since backends throw on bad input) with `context` and the backend's message.
 */
export function toSnappyError(
  error: unknown,
  context: string,
  code: SnappyErrorCode = "CORRUPT_INPUT",
): SnappyError {
  if (error instanceof SnappyError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new SnappyError(code, `${context}: ${detail}`, { cause: error });
}

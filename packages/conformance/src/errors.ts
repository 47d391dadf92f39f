// Small assertion helpers for adapters' own quirk tests (vitest-free), so each test file
// does not grow its own try/catch wrapper.
import { type SnappyCodec, SnappyError, type SnappyErrorCode } from "@snappykit/core";

/** What `fn` threw; throws itself when `fn` returns normally. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw, but it returned");
}

/**
 * The `SnappyError` `fn` threw; throws when it returned, threw anything else, or (with
 * `code`) threw a `SnappyError` with another code.
 */
export function snappyErrorOf(fn: () => unknown, code?: SnappyErrorCode): SnappyError {
  const error = thrown(fn);
  if (!(error instanceof SnappyError)) {
    throw new Error(`expected a SnappyError, got ${String(error)}`, { cause: error });
  }
  if (code !== undefined && error.code !== code) {
    throw new Error(`expected SnappyError ${code}, got ${error.code}: ${error.message}`, {
      cause: error,
    });
  }
  return error;
}

/**
 * The error for `input`, a stream that passes the adapter's guard and that the backend
 * itself rejects: `CORRUPT_INPUT`, naming the library, with the backend's error as `cause`
 * (what `guardedCodec` makes of it).
 */
export function backendRejection(codec: SnappyCodec, input: Uint8Array): SnappyError {
  const error = snappyErrorOf(() => codec.uncompress(input), "CORRUPT_INPUT");
  if (!error.message.startsWith(`${codec.library} rejected the stream`)) {
    throw new Error(`"${error.message}" does not say that ${codec.library} rejected the stream`);
  }
  if (!(error.cause instanceof Error)) throw new Error("the backend's error is not the cause");
  return error;
}

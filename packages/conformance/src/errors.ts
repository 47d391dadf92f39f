// Small assertion helpers for adapters' own quirk tests (vitest-free), so each test file
// does not grow its own try/catch wrapper.
import { SnappyError } from "@snappykit/core";

/** What `fn` threw; throws itself when `fn` returns normally. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw, but it returned");
}

/** The `SnappyError` `fn` threw; throws when it returned or threw anything else. */
export function snappyErrorOf(fn: () => unknown): SnappyError {
  const error = thrown(fn);
  if (error instanceof SnappyError) return error;
  throw new Error(`expected a SnappyError, got ${String(error)}`, { cause: error });
}

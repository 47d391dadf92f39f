// Whose fault a failure is. A peer scorer maps reasons to penalties, so only the peer's bytes
// may produce a peer's reason: a codec that throws something other than a SnappyError is
// broken (`backend-failed`), and a callback of the application that throws is the
// application's (`bad-options`); each keeps what was thrown as `cause`.
import { type SnappyCodec, SnappyError } from "@snappykit/core";

/** What a codec method threw: its own SnappyError (it classified the input), else its fault. */
export function codecFault(error: unknown, codec: SnappyCodec, what: string): SnappyError {
  if (error instanceof SnappyError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new SnappyError("backend-failed", `${what}: codec ${codec.name} threw: ${detail}`, {
    cause: error,
  });
}

/** What an application callback (bounds, metrics) threw: the application's fault. */
export function callbackFault(error: unknown, what: string): SnappyError {
  const detail = error instanceof Error ? error.message : String(error);
  return new SnappyError("bad-options", `${what} threw: ${detail}`, { cause: error });
}

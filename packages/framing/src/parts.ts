// What framing takes as a piece of a stream: a Uint8Array, or a list of Uint8Array parts read in
// place (libp2p's `Uint8ArrayList`), never flattened into a copy.
import { bytesOf, SnappyError, toSnappyError } from "@snappykit/core";

/**
 * A piece of a byte stream: a `Uint8Array`, or anything iterable over `Uint8Array` parts
 * (a `Uint8ArrayList` from the `uint8arraylist` package, as libp2p streams yield, or an array
 * of `Uint8Array`s). A list's parts are read one after the other, in place.
 */
export type ByteChunk = Uint8Array | Iterable<Uint8Array>;

/**
 * The parts of `chunk`, each a plain `Uint8Array` view from core's `bytesOf`: the chunk itself
 * when it is a `Uint8Array`, else the parts its iterator yields.
 * @throws SnappyError `INVALID_ARGUMENT` for anything else (a string, another typed array, an
 *   object that is not iterable, a part that is not a `Uint8Array`, an iterator that throws).
 */
export function* partsOf(chunk: unknown, what: string): Generator<Uint8Array, void, undefined> {
  // Typed arrays (of any kind: bytesOf refuses all but Uint8Array) and primitives are one part.
  if (
    typeof chunk !== "object" ||
    chunk === null ||
    ArrayBuffer.isView(chunk) ||
    chunk instanceof Uint8Array
  ) {
    yield bytesOf(chunk, what);
    return;
  }
  let index = 0;
  try {
    if (typeof (chunk as Partial<Iterable<unknown>>)[Symbol.iterator] !== "function") {
      throw new SnappyError(
        "not-bytes",
        `${what} must be a Uint8Array or an iterable of Uint8Array parts (a Uint8ArrayList), got a non-iterable object`,
      );
    }
    for (const part of chunk as Iterable<unknown>) yield bytesOf(part, `${what} part ${index++}`);
  } catch (error) {
    // The list's own iterator is caller code: whatever it throws reaches the caller as ours.
    throw toSnappyError(error, `${what} (a list of parts)`, "INVALID_ARGUMENT");
  }
}

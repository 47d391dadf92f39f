// The faults of a raw Snappy stream's elements, worded once: core's validator (validate.ts)
// and every decoder that names where a stream goes wrong (@snappykit/ts's two) throw these, so
// the same fault reads the same whichever found it. Built outside the decoding loops, so that
// a hot function holds no message formatting, only the call that throws what these return.
//
// Format clauses: google/snappy format_description.txt §1 (preamble), §2.1 (literals),
// §2.2 (copies).

import { SnappyError } from "./errors.js";

/** An element's tag at byte `tagAt` that has fewer bytes after it than its kind needs. */
export function tagCut(
  kind: "literal" | "copy-1" | "copy-2" | "copy-4",
  needed: number,
  remain: number,
  tagAt: number,
) {
  return new SnappyError(
    "truncated",
    `${kind} tag needs ${needed} more bytes, only ${remain} remain (tag at byte ${tagAt})`,
    { at: tagAt },
  );
}

/** A literal of `length` bytes with only `remain` bytes of input left (§2.1). */
export function literalPastInput(length: number, remain: number, produced: number, tagAt: number) {
  return new SnappyError(
    "literal-past-input",
    `literal of ${length} bytes runs past the end of the input (${remain} remain; tag at byte ${tagAt})`,
    { at: tagAt, length, produced },
  );
}

/** A copy with offset 0 (§2.2). */
export function offsetZero(produced: number, tagAt: number) {
  return new SnappyError("offset-zero", `copy with offset 0 (tag at byte ${tagAt})`, {
    at: tagAt,
    produced,
  });
}

/** A copy whose `offset` reaches before the start of the output, `produced` bytes so far (§2.2). */
export function offsetPastOutput(offset: number, produced: number, tagAt: number) {
  return new SnappyError(
    "offset-past-output",
    `copy offset ${offset} reaches before the ${produced} bytes produced (tag at byte ${tagAt})`,
    { at: tagAt, offset, produced },
  );
}

/**
 * An element of `length` bytes at output position `produced` that ends past the `declared`
 * length (§1: the preamble is the output's length).
 */
export function overrunsDeclared(
  kind: "literal" | "copy",
  length: number,
  produced: number,
  declared: number,
  tagAt: number,
) {
  return new SnappyError(
    "output-overrun",
    `${kind} of ${length} bytes at output ${produced} overruns the declared ${declared} (tag at byte ${tagAt})`,
    { at: tagAt, length, produced, declared },
  );
}

/** A stream that ends, at input byte `at`, after `produced` of its `declared` bytes (§1). */
export function endsShort(produced: number, declared: number, at: number) {
  return new SnappyError(
    "truncated",
    `stream produces ${produced} bytes, but its preamble declares ${declared}`,
    { at, produced, declared },
  );
}

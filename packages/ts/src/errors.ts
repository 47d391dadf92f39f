// The decoders' errors, shared by the kernel's path (checked.ts) and plain.ts: the same stream
// fails the same way with or without the kernel. Built outside the decoding loops, so that the
// hot functions hold no message formatting, only the calls that throw what these return.

import { SnappyError, type SnappyErrorDetails, type SnappyErrorReason } from "@snappykit/core";

/** A `CORRUPT_INPUT` error about the element whose tag is at byte `tagAt` of the stream. */
export function corrupt(
  reason: SnappyErrorReason,
  message: string,
  tagAt: number,
  details?: SnappyErrorDetails,
): SnappyError {
  return new SnappyError(reason, `${message} (tag at byte ${tagAt})`, { at: tagAt, ...details });
}

/** A literal whose length needs `extra` bytes, with only `remain` left. */
export function lengthCut(extra: number, remain: number, tagAt: number) {
  return corrupt("truncated", `literal length needs ${extra} bytes, only ${remain} remain`, tagAt);
}

/** A literal of `length` bytes with only `remain` bytes of input left. */
export function pastInput(length: number, remain: number, produced: number, tagAt: number) {
  return corrupt(
    "literal-past-input",
    `literal of ${length} bytes runs past the end of the input (${remain} remain)`,
    tagAt,
    { length, produced },
  );
}

/** An element of `length` bytes at output position `at` that ends past the declared length. */
export function pastDeclared(
  kind: string,
  length: number,
  at: number,
  declared: number,
  tagAt: number,
) {
  return corrupt(
    "output-overrun",
    `${kind} of ${length} bytes at output ${at} overruns the declared ${declared}`,
    tagAt,
    { length, produced: at, declared },
  );
}

/** A copy whose `offset` reaches before the start of the output (`at` bytes so far). */
export function pastStart(offset: number, at: number, tagAt: number) {
  return corrupt(
    "offset-past-output",
    `copy offset ${offset} reaches before the ${at} bytes produced`,
    tagAt,
    { offset, produced: at },
  );
}

/** A stream that ends after `produced` of its `declared` bytes, at input byte `at`. */
export function endsShort(produced: number, declared: number, at: number) {
  return new SnappyError(
    "truncated",
    `stream produces ${produced} bytes, but its preamble declares ${declared}`,
    { produced, declared, at },
  );
}

/** The kernel's fast path ran past the declared length of a small output (checked.ts). */
export function overrun(declared: number, produced: number, inputAt: number): SnappyError {
  return new SnappyError(
    "output-overrun",
    `stream overruns its declared ${declared} bytes (${produced} by byte ${inputAt} of the input)`,
    { declared, produced, at: inputAt },
  );
}

// How one compress call is judged: the reference decoder must give the input back, then the
// codec's own uncompress must too, and the stream must fit maxCompressedLength(n).
import { firstDifference, oracleUncompress } from "@snappykit/conformance/cases";
import { maxCompressedLength } from "@snappykit/core";
import { describeError } from "../outcome.js";

/**
 * What compressing one input did:
 * - `ok`: the reference decodes the stream to the input, the codec's own uncompress agrees,
 *   and the stream fits `maxCompressedLength`.
 * - `wrongBytes`: a valid stream that decodes to other bytes (the encoder corrupted data).
 * - `invalidStream`: the reference rejects the stream.
 * - `selfMismatch`: the reference decodes the input, but the codec's own uncompress does not.
 * - `overBound`: round-trips, but is longer than `maxCompressedLength(n)`.
 * - `threw`: compress threw.
 * - `crash`, `hang`: the child died, or was killed after the hang limit.
 */
export const ENCODER_OUTCOMES = [
  "ok",
  "wrongBytes",
  "invalidStream",
  "selfMismatch",
  "overBound",
  "threw",
  "crash",
  "hang",
] as const;
export type EncoderOutcome = (typeof ENCODER_OUTCOMES)[number];

/** What the encoder fuzz calls: an adapter codec or a raw backend. */
export interface EncoderSubject {
  library: string;
  compress(input: Uint8Array): Uint8Array;
  uncompress(input: Uint8Array): Uint8Array;
}

/** Where `a` and `b` differ, in words; empty when they hold the same bytes. */
function difference(a: Uint8Array, b: Uint8Array): string {
  const i = firstDifference(a, b);
  if (i === -1) return "";
  return i < Math.min(a.length, b.length)
    ? `first difference at byte ${i}`
    : `lengths ${a.length} vs ${b.length}`;
}

/** What elements a stream uses: the longest copy offset and how many copies need 4 offset bytes. */
export interface StreamShape {
  maxOffset: number;
  copy4: number;
}

/**
 * Walk the elements of a stream the reference has accepted (format_description.txt §2): which
 * offsets the encoder reached for, and whether it ever needed the 4-byte copy form.
 */
export function streamShape(stream: Uint8Array): StreamShape {
  let pos = 0;
  while (stream[pos]! >= 0x80) pos++;
  pos++;
  const shape = { maxOffset: 0, copy4: 0 };
  while (pos < stream.length) {
    const tag = stream[pos++]!;
    const kind = tag & 3;
    if (kind === 0) {
      let n = tag >> 2;
      if (n >= 60) {
        const extra = n - 59;
        n = 0;
        for (let i = 0; i < extra; i++) n += stream[pos + i]! * 256 ** i;
        pos += extra;
      }
      pos += n + 1;
      continue;
    }
    let offset: number;
    if (kind === 1) offset = ((tag >> 5) << 8) | stream[pos++]!;
    else if (kind === 2) {
      offset = stream[pos]! | (stream[pos + 1]! << 8);
      pos += 2;
    } else {
      offset =
        (stream[pos]! |
          (stream[pos + 1]! << 8) |
          (stream[pos + 2]! << 16) |
          (stream[pos + 3]! << 24)) >>>
        0;
      pos += 4;
      shape.copy4++;
    }
    shape.maxOffset = Math.max(shape.maxOffset, offset);
  }
  return shape;
}

/** What one compress call did; `shape` for a stream that round-trips. */
export interface Verdict {
  outcome: EncoderOutcome;
  detail: string;
  out: number;
  shape?: StreamShape;
}

/** Compress `input` and judge the result. */
export function judge(subject: EncoderSubject, input: Uint8Array): Verdict {
  let compressed: Uint8Array;
  try {
    compressed = subject.compress(input);
  } catch (error) {
    return { outcome: "threw", detail: `compress threw ${describeError(error)}`, out: 0 };
  }
  if (!(compressed instanceof Uint8Array)) {
    return { outcome: "threw", detail: `compress returned ${typeof compressed}`, out: 0 };
  }
  const out = compressed.length;
  const bad = (outcome: EncoderOutcome, detail: string): Verdict => ({ outcome, detail, out });
  let decoded: Uint8Array;
  try {
    decoded = oracleUncompress(compressed);
  } catch (error) {
    return bad("invalidStream", `the reference rejects the stream: ${describeError(error)}`);
  }
  const decodedDiff = difference(decoded, input);
  if (decodedDiff)
    return bad("wrongBytes", `valid stream, but it decodes to other bytes: ${decodedDiff}`);
  try {
    const ownDiff = difference(subject.uncompress(compressed), input);
    if (ownDiff) return bad("selfMismatch", `own uncompress: ${ownDiff}`);
  } catch (error) {
    return bad("selfMismatch", `own uncompress threw ${describeError(error)}`);
  }
  const bound = maxCompressedLength(input.length);
  if (out > bound) return bad("overBound", `${out} bytes, over maxCompressedLength ${bound}`);
  return { outcome: "ok", detail: "", out, shape: streamShape(compressed) };
}

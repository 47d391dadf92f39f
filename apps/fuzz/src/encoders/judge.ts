// How one compress call is judged: the reference decoder must give the input back, then the
// codec's own uncompress must too, and the stream must fit maxCompressedLength(n).
import { oracleUncompress } from "@snappykit/conformance/cases";
import { maxCompressedLength } from "@snappykit/core";
import { sameBytes } from "../outcome.js";
import type { EncoderOutcome } from "./protocol.js";

/** What the encoder fuzz calls: an adapter codec or a raw backend. */
export interface EncoderSubject {
  library: string;
  compress(input: Uint8Array): Uint8Array;
  uncompress(input: Uint8Array): Uint8Array;
}

export function describe(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}${"code" in error && error.code !== undefined ? ` ${String(error.code)}` : ""}: ${error.message}`
      : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function firstDifference(a: Uint8Array, b: Uint8Array): string {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return `first difference at byte ${i}`;
  return `lengths ${a.length} vs ${b.length}`;
}

/** Compress `input` and judge the result. */
export function judge(
  subject: EncoderSubject,
  input: Uint8Array,
): { outcome: EncoderOutcome; detail: string; out: number } {
  let compressed: Uint8Array;
  try {
    compressed = subject.compress(input);
  } catch (error) {
    return { outcome: "threw", detail: `compress threw ${describe(error)}`, out: 0 };
  }
  if (!(compressed instanceof Uint8Array)) {
    return { outcome: "threw", detail: `compress returned ${typeof compressed}`, out: 0 };
  }
  const out = compressed.length;
  let decoded: Uint8Array;
  try {
    decoded = oracleUncompress(compressed);
  } catch (error) {
    return {
      outcome: "invalidStream",
      detail: `the reference rejects the stream: ${describe(error)}`,
      out,
    };
  }
  if (!sameBytes(decoded, input)) {
    return {
      outcome: "wrongBytes",
      detail: `valid stream, but it decodes to other bytes: ${firstDifference(decoded, input)}`,
      out,
    };
  }
  try {
    const own = subject.uncompress(compressed);
    if (!sameBytes(own, input)) {
      return {
        outcome: "selfMismatch",
        detail: `own uncompress: ${firstDifference(own, input)}`,
        out,
      };
    }
  } catch (error) {
    return { outcome: "selfMismatch", detail: `own uncompress threw ${describe(error)}`, out };
  }
  if (out > maxCompressedLength(input.length)) {
    return {
      outcome: "overBound",
      detail: `${out} bytes, over maxCompressedLength ${maxCompressedLength(input.length)}`,
      out,
    };
  }
  return { outcome: "ok", detail: "", out };
}

// What each input should decode to. The reference is the conformance suite's oracle: a
// by-the-book decoder of format_description.txt that rejects exactly what Google's
// libsnappy rejects, shares no code with any codec or with @snappykit/core, and never
// allocates by the preamble (so it can judge a 4 GiB claim in the parent process).
// Google's libsnappy itself runs as the raw `libsnappy` row, isolated like every other
// backend, so its row is the cross-check: any silent accept, false reject or wrong bytes
// there is a disagreement between the oracle and real libsnappy.
import { oracleUncompress } from "@snappykit/conformance/cases";
import { validateCompressed } from "@snappykit/core";
import type { InputSet } from "./inputs.js";
import { type Example, type Expected, toHex } from "./outcome.js";

/** One line for reports: how "same bytes" and "silent accept" are decided. */
export const REFERENCE_DESCRIPTION =
  "@snappykit/conformance's oracle decoder (format_description.txt by the book; rejects what Google's libsnappy rejects), plus the input's maxLength; cross-checked against @snappykit/core's validateCompressed on every input and against raw libsnappy (snappy@6) in its own row";

/** The reference result for one input: its decoded bytes, or `null` when it must be rejected. */
export function referenceOutcome(input: Uint8Array, maxLength?: number): Expected {
  const out = orNull(() => oracleUncompress(input));
  return out && maxLength !== undefined && out.length > maxLength ? null : out;
}

/** What `decode` returns, or `null` where it throws: a reference's verdict. */
export function orNull<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch {
    return null;
  }
}

/** Where the oracle and `validateCompressed` disagree on accepting an input. */
export interface ReferenceCheck {
  inputs: number;
  disagreements: (Example & { set: string; oracle: "accept" | "reject" })[];
}

/** The reference result for every input of `set`, plus its cross-check with `validateCompressed`. */
export function referenceFor(set: InputSet, check: ReferenceCheck): Expected[] {
  return set.inputs.map((input, index) => {
    const maxLength = set.maxLength[index];
    const expected = referenceOutcome(input, maxLength);
    const options = maxLength === undefined ? undefined : { maxLength };
    const validates = orNull(() => validateCompressed(input, options)) !== null;
    check.inputs++;
    if (validates !== (expected !== null) && check.disagreements.length < 20) {
      check.disagreements.push({
        set: set.name,
        index,
        hex: toHex(input),
        ms: 0,
        rssGrowth: 0,
        oracle: expected === null ? "reject" : "accept",
      });
    }
    return expected;
  });
}

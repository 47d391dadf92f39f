// Where the kernel's path stages a block's last literal (compress.ts: restLeft). Not run
// by fallback.test.ts: without the kernel nothing is staged (plain.ts writes the output).
import { maxCompressedLength } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { compress, compressInto, internals } from "./compress.js";
import { randomBytes } from "./test-support/inputs.js";

describe("compress: a block's last literal", () => {
  // compressTo stages each block, then copies it out; a last literal longer than
  // SHORT_LITERAL is copied from the input instead, so that incompressible data is not copied
  // twice. The staging buffer shows which: a literal staged there overwrites the marker.
  const { staged, SHORT_LITERAL } = internals();
  const MARK = 0xee;
  /** The input, and the staging buffer's bytes after its tag as compressInto left them. */
  const compressIntoStaged = (length: number) => {
    const input = randomBytes(length, 7);
    const output = new Uint8Array(maxCompressedLength(length));
    staged.fill(MARK, 0, length + 16);
    const n = compressInto(input, output);
    // A 2-byte tag for these lengths (§2.1, length − 1 in one extra byte).
    const after = staged.slice(2, 2 + length);
    expect(output.subarray(0, n)).toEqual(compress(input));
    return { input, after };
  };

  it(`of SHORT_LITERAL (${SHORT_LITERAL}) bytes is staged with the block`, () => {
    const { input, after } = compressIntoStaged(SHORT_LITERAL);
    expect(after).toEqual(input);
  });

  it("of SHORT_LITERAL + 1 bytes is copied from the input, not staged", () => {
    // Past the 4-byte move that writes the tag.
    const { after } = compressIntoStaged(SHORT_LITERAL + 1);
    expect(after.subarray(2).every((b) => b === MARK)).toBe(true);
  });
});

// Self-tests of the boundary checks with sizes given by hand (constants.test.ts proves how
// they are read from source).
import { maxCompressedLength, type SnappyCodec, SnappyError } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { boundarySizes } from "./sizes.js";
import { failures, reference } from "./test/reference.js";

describe("the boundary checks", () => {
  it("fail a codec broken at one size the boundary checks are given", async () => {
    // What ts once did: a 4096-byte output held in one literal threw a TypeError.
    const broken: SnappyCodec = {
      ...reference,
      uncompress: (input, options) => {
        const out = reference.uncompress(input, options);
        if (out.length === 4096 && input.length > 4096) throw new TypeError("null.set");
        return out;
      },
    };
    const boundaries = boundarySizes([{ name: "SMALL_OUTPUT", value: 4096 }], {
      maxPowerOfTwo: 1024,
    });
    expect(boundaries.sizes.map((s) => s.size)).toContain(4096);
    // The legal forms' 4,096 one-byte literals meet the same bug without being told the size.
    expect(await failures(broken, { boundaries })).toEqual([
      "decodes every legal form: uncompress",
      "decodes every legal form: uncompress with maxLength at the stream's own length",
      "boundary sizes: 4096 B (SMALL_OUTPUT (4096))",
    ]);
    expect(await failures(reference, { boundaries })).toEqual([]);
  });

  it("fail a compress bound undefined at a large size the code names", async () => {
    // stablelib's own bound is 0 above 1,840,700,241 bytes; the contract's goes to 2^32-1.
    const limited: SnappyCodec = {
      ...reference,
      maxCompressedLength: (n) => {
        if (n > 1_840_700_241) throw new SnappyError("bad-argument", "too large");
        return maxCompressedLength(n);
      },
    };
    const boundaries = boundarySizes([{ name: "LIBRARY_MAX", value: 1_840_700_241 }], {
      maxPowerOfTwo: 1,
    });
    expect(await failures(limited, { boundaries })).toEqual([
      "boundary sizes: over the round-trip sizes: LIBRARY_MAX (1840700241)",
    ]);
  });
});

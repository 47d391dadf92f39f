import { describe, expect, it } from "vitest";
import { copy1, copy2, copy4, literal, varint } from "./corpus.js";
import { oracleUncompress } from "./oracle.js";

describe("element builders", () => {
  it("write the bytes format_description.txt §2.2 gives each copy (the largest fields too)", () => {
    expect(copy1(4, 1)).toEqual([0b000_000_01, 1]);
    expect(copy1(11, 2047)).toEqual([0b111_111_01, 0xff]);
    expect(copy2(1, 1)).toEqual([0b000000_10, 1, 0]);
    expect(copy2(64, 65535)).toEqual([0b111111_10, 0xff, 0xff]);
    expect(copy4(64, 0xfedcba98)).toEqual([0b111111_11, 0x98, 0xba, 0xdc, 0xfe]);
  });

  it("build a stream snappy@7 decodes", () => {
    const stream = Uint8Array.from([
      ...varint(4 + 11 + 64 + 64),
      ...literal([1, 2, 3, 4]),
      ...copy1(11, 4),
      ...copy2(64, 15),
      ...copy4(64, 79),
    ]);
    const out = oracleUncompress(stream);
    expect(out.length).toBe(143);
    expect(Array.from(out.subarray(0, 8))).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
  });
});

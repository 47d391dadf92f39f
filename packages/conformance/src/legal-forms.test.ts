import { type SnappyCodec, SnappyError, validateCompressed } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { sameBytes } from "./expect.js";
import { legalForms, literalHeaderIn, varintIn } from "./legal-forms.js";
import { oracleUncompress } from "./oracle.js";
import { failures, reference } from "./test/reference.js";

// A broken decoder fails other groups too (it was written to break this one).
const LEGAL = "decodes every legal form";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("the legal-forms generator", () => {
  const cases = legalForms();

  it("means, by its own model, what the oracle decodes, and core's validator accepts", () => {
    for (const item of cases) {
      sameBytes(oracleUncompress(item.stream), item.expected, item.name);
      expect(validateCompressed(item.stream), item.name).toBe(item.expected.length);
    }
  });

  it("holds the forms the issue names, among them Lodestar's short extended literal", () => {
    const streams = new Set(cases.map((c) => hex(c.stream)));
    expect(streams).toContain("081841414141414141f00041");
    // Literal of 1 byte in the 1-byte length form after a copy, the last element.
    expect([...streams].some((s) => /f000[0-9a-f]{2}$/.test(s))).toBe(true);
    // Literals in all five length forms, every form's longest, every copy form.
    for (const name of [
      "literal of 60 in the tag, last",
      "literal of 256 in 1 length byte(s), last",
      "literal of 1 in 4 length byte(s), last",
      "literal of 65537 in 3 length byte(s), then a copy",
      "copy-1 of lengths 4..11 from offset 2047",
      "copy-2 of lengths 1..64 from offset 65535",
      "copy-4 of lengths 1..64 from offset 65536",
      "overlapping copies of every form at offset 64",
      "65536 one-byte literals",
    ]) {
      expect(cases.map((c) => c.name)).toContain(name);
    }
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it("is deterministic and small enough for every adapter's every path", () => {
    expect(legalForms()).toBe(cases);
    const total = cases.reduce((sum, c) => sum + c.stream.length + c.expected.length, 0);
    expect(total).toBeLessThan(8 * 2 ** 20);
  });

  it("writes preambles in every width up to 5 bytes, the padding bytes 0x80 then 0x00", () => {
    expect(varintIn(0, 1)).toEqual([0x00]);
    expect(varintIn(0, 5)).toEqual([0x80, 0x80, 0x80, 0x80, 0x00]);
    expect(varintIn(128, 3)).toEqual([0x80, 0x81, 0x00]);
    expect(varintIn(16_383, 2)).toEqual([0xff, 0x7f]);
    expect(() => varintIn(128, 1)).toThrow(RangeError);
    expect(() => varintIn(1, 6)).toThrow(RangeError);
    const names = legalForms().map((c) => c.name);
    expect(names).toContain("0 bytes behind a 5-byte preamble");
    expect(names).toContain("16384 bytes behind a 3-byte preamble");
  });

  it("writes literal lengths only in forms that hold them", () => {
    expect(literalHeaderIn(1, 1)).toEqual([0xf0, 0x00]);
    expect(literalHeaderIn(4, 2 ** 32)).toEqual([0xfc, 0xff, 0xff, 0xff, 0xff]);
    expect(() => literalHeaderIn("tag", 61)).toThrow(RangeError);
    expect(() => literalHeaderIn(1, 257)).toThrow(RangeError);
    expect(() => literalHeaderIn(2, 0)).toThrow(RangeError);
  });
});

describe("the legal-form checks", () => {
  // Rejects a literal whose length bytes are fewer than 4 from the end of the input, as
  // Rust snap (napi-v1, snappy-wasm) and snappyjs do; everything else is the reference.
  const shortTail = (input: Uint8Array) => {
    const at = input.length - 4;
    return at >= 0 && [0xf0, 0xf4, 0xf8].some((tag) => input.subarray(at).includes(tag));
  };
  const strict =
    <A extends unknown[], R>(decode: (input: Uint8Array, ...rest: A) => R) =>
    (input: Uint8Array, ...rest: A): R => {
      // The reference checks the arguments first; only then is `input` known to be bytes.
      const result = decode(input, ...rest);
      if (shortTail(input)) throw new SnappyError("backend-rejected", "expected 4 length bytes");
      return result;
    };

  it("fail a decoder that reads four length bytes for every extended literal", async () => {
    const uncompressInto = reference.uncompressInto!;
    const codec: SnappyCodec = {
      ...reference,
      uncompress: strict(reference.uncompress),
      uncompressInto: strict(uncompressInto),
    };
    expect(await failures(codec, undefined, LEGAL)).toEqual([
      "decodes every legal form: uncompress",
      "decodes every legal form: uncompress with maxLength at the stream's own length",
      "decodes every legal form: uncompressInto an output of exactly the length",
    ]);
  });

  it("fail an uncompressAsync that rejects what uncompress reads", async () => {
    const codec: SnappyCodec = {
      ...reference,
      uncompressAsync: async (input, options) => strict(reference.uncompress)(input, options),
    };
    expect(await failures(codec, undefined, LEGAL)).toEqual([
      "decodes every legal form: uncompressAsync",
    ]);
  });
});

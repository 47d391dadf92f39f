import { describe, expect, it } from "vitest";
import { SnappyError } from "./errors.js";
import {
  assertOutputLength,
  checkOptions,
  checkUncompressedLength,
  DEFAULT_MAX_LENGTH,
  MAX_EXPANSION_RATIO,
  maxCompressedLength,
  maxExpandedLength,
  resolveMaxLength,
} from "./limits.js";
import { encodeUncompressedLength } from "./varint.js";

const stream = (declared: number, bodyLength: number) => {
  const header = encodeUncompressedLength(declared);
  const bytes = new Uint8Array(header.length + bodyLength);
  bytes.set(header);
  return bytes;
};

/** The message of the SnappyError `fn` throws with `code`. */
const messageOf = (fn: () => unknown, code: string) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SnappyError);
    expect((error as SnappyError).code).toBe(code);
    return (error as Error).message;
  }
  throw new Error("no error");
};

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof SnappyError) return error.code;
    throw error;
  }
  return "no error";
};

describe("maxCompressedLength", () => {
  it("is 32 + n + n/6", () => {
    expect(maxCompressedLength(0)).toBe(32);
    expect(maxCompressedLength(6)).toBe(39);
    expect(maxCompressedLength(65536)).toBe(32 + 65536 + 10922);
  });

  it("rejects lengths no stream can have", () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 32]) {
      expect(codeOf(() => maxCompressedLength(bad))).toBe("INVALID_ARGUMENT");
    }
    expect(maxCompressedLength(2 ** 32 - 1)).toBe(32 + 2 ** 32 - 1 + Math.floor((2 ** 32 - 1) / 6));
    expect(messageOf(() => maxCompressedLength(-1), "INVALID_ARGUMENT")).toBe(
      "length -1 is not an integer in 0..2^32-1",
    );
  });
});

describe("checkUncompressedLength", () => {
  it("passes a plausible stream and returns the preamble", () => {
    expect(checkUncompressedLength(stream(64, 3))).toMatchObject({ length: 64, headerSize: 1 });
    expect(checkUncompressedLength(Uint8Array.of(0))).toMatchObject({ length: 0, headerSize: 1 });
    // The input comes back as the plain view to read from: itself when already plain.
    const plain = stream(64, 3);
    expect(checkUncompressedLength(plain).bytes).toBe(plain);
    const pooled = Buffer.from(plain);
    const { bytes } = checkUncompressedLength(pooled);
    expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
    expect([bytes.buffer, bytes.byteOffset, bytes.length]).toEqual([
      pooled.buffer,
      pooled.byteOffset,
      pooled.length,
    ]);
  });

  it("rejects a declared length over maxLength with LENGTH_LIMIT", () => {
    expect(codeOf(() => checkUncompressedLength(stream(1000, 100), { maxLength: 999 }))).toBe(
      "LENGTH_LIMIT",
    );
    expect(codeOf(() => checkUncompressedLength(stream(1000, 100), { maxLength: 1000 }))).toBe(
      "no error",
    );
    expect(codeOf(() => checkUncompressedLength(stream(DEFAULT_MAX_LENGTH + 1, 2 ** 24)))).toBe(
      "LENGTH_LIMIT",
    );
  });

  it("rejects a preamble the body cannot expand to (decompression bomb)", () => {
    expect(maxExpandedLength(3)).toBe(64);
    expect(MAX_EXPANSION_RATIO * 3).toBe(maxExpandedLength(3));
    // Both limits at once: the bound decides when the declared length is within maxLength.
    expect(codeOf(() => checkUncompressedLength(stream(65, 3), { maxLength: 65 }))).toBe(
      "CORRUPT_INPUT",
    );
    expect(messageOf(() => checkUncompressedLength(stream(65, 3)), "CORRUPT_INPUT")).toBe(
      "stream declares 65 bytes, but its 3-byte body can decode to at most 64",
    );
    expect(
      messageOf(
        () => checkUncompressedLength(stream(1000, 100), { maxLength: 999 }),
        "LENGTH_LIMIT",
      ),
    ).toBe("stream declares 1000 bytes, over the maxLength of 999");
    expect(codeOf(() => checkUncompressedLength(stream(64, 3)))).toBe("no error");
    expect(codeOf(() => checkUncompressedLength(stream(65, 3)))).toBe("CORRUPT_INPUT");
    expect(codeOf(() => checkUncompressedLength(stream(2 ** 32 - 1, 5)))).toBe("LENGTH_LIMIT");
    expect(
      codeOf(() => checkUncompressedLength(stream(2 ** 32 - 1, 5), { maxLength: 2 ** 32 })),
    ).toBe("CORRUPT_INPUT");
  });

  it("takes maxLength 0, and 256 MiB when none is given", () => {
    expect(checkUncompressedLength(Uint8Array.of(0), { maxLength: 0 })).toMatchObject({
      length: 0,
      headerSize: 1,
    });
    expect(resolveMaxLength()).toBe(DEFAULT_MAX_LENGTH);
    expect(resolveMaxLength({})).toBe(DEFAULT_MAX_LENGTH);
    expect(resolveMaxLength({ maxLength: 0 })).toBe(0);
  });

  it("rejects bad arguments with INVALID_ARGUMENT", () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53]) {
      expect(messageOf(() => resolveMaxLength({ maxLength: bad }), "INVALID_ARGUMENT")).toBe(
        `maxLength must be a non-negative integer, got ${bad}`,
      );
    }
    expect(codeOf(() => checkUncompressedLength("abc" as never))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => checkUncompressedLength(stream(1, 2), { maxLength: -1 }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(codeOf(() => checkUncompressedLength(null as never))).toBe("INVALID_ARGUMENT");
  });
});

describe("assertOutputLength", () => {
  it("throws CORRUPT_INPUT naming the backend when lengths differ", () => {
    expect(() => assertOutputLength(new Uint8Array(3), 4, "lib")).toThrow(/lib produced 3 bytes/);
    expect(() => assertOutputLength(new Uint8Array(4), 4, "lib")).not.toThrow();
    expect(messageOf(() => assertOutputLength(new Uint8Array(5), 4, "lib"), "CORRUPT_INPUT")).toBe(
      "lib produced 5 bytes, but the stream declares 4",
    );
  });
});

describe("arguments that only look right", () => {
  it("uncompress options: a value where the object goes, or an unknown key, is refused", () => {
    const ok = stream(10, 3);
    // snappyjs takes maxLength positionally; a migrating caller's limit must not vanish.
    for (const bad of [10, "10", null, true, [10], []]) {
      expect(
        codeOf(() => checkUncompressedLength(ok, bad as never)),
        String(bad),
      ).toBe("INVALID_ARGUMENT");
    }
    expect(() => checkUncompressedLength(ok, { maxlength: 10 } as never)).toThrow(
      /unknown key "maxlength" \(did you mean "maxLength"\?\)/,
    );
    // An array is no options object, even an empty one (an empty array has no keys to refuse).
    for (const array of [[10], []]) {
      expect(messageOf(() => checkUncompressedLength(ok, array as never), "INVALID_ARGUMENT")).toBe(
        "options must be an object with maxLength, got an array",
      );
    }
    expect(messageOf(() => checkUncompressedLength(ok, null as never), "INVALID_ARGUMENT")).toBe(
      "options must be an object with maxLength, got null",
    );
    expect(
      messageOf(
        () => checkUncompressedLength(ok, { maxLength: 5, x: 1 } as never),
        "INVALID_ARGUMENT",
      ),
    ).toBe('options has an unknown key "x"; known: maxLength');
    for (const fine of [undefined, {}, { maxLength: undefined }, { maxLength: 10 }]) {
      expect(codeOf(() => checkUncompressedLength(ok, fine))).toBe("no error");
    }
  });

  it("reads options as own properties only: a polluted prototype sets nothing", () => {
    // A 300 MiB preamble: over the default maxLength.
    const big = stream(300 * 1024 * 1024, 2 ** 24);
    const proto = Object.prototype as { maxLength?: number; limit?: number };
    proto.maxLength = 2 ** 40;
    proto.limit = 5;
    try {
      for (const options of [{}, Object.create(null), undefined]) {
        expect(codeOf(() => checkUncompressedLength(big, options))).toBe("LENGTH_LIMIT");
        expect(resolveMaxLength(options)).toBe(DEFAULT_MAX_LENGTH);
      }
      expect(checkOptions({ a: 1 }, ["a", "maxLength"])).toEqual({ a: 1 });
      expect(Object.keys(checkOptions({}, ["maxLength"]))).toEqual([]);
      // What the caller left out reads as absent, not as the prototype's (framing's decoders
      // read maxLength off this result).
      const given: ({ a?: number; maxLength?: number } | undefined)[] = [{}, undefined, { a: 1 }];
      for (const options of given) {
        expect(checkOptions(options, ["a", "maxLength"]).maxLength).toBeUndefined();
      }
    } finally {
      delete proto.maxLength;
      delete proto.limit;
    }
    // An inherited key is neither an option nor an unknown key.
    const inherited = Object.create({ maxLength: 5, limit: 5 }) as { maxLength?: number };
    expect(resolveMaxLength(inherited)).toBe(DEFAULT_MAX_LENGTH);
    expect(checkOptions(inherited, ["maxLength"])).toEqual({});
    expect(resolveMaxLength({ maxLength: 7 })).toBe(7);
  });

  it("names each fault with its reason and numbers", () => {
    const over = () => checkUncompressedLength(stream(1000, 100), { maxLength: 999 });
    expect(over).toThrow(
      expect.objectContaining({ reason: "length-over-limit", declared: 1000, limit: 999 }),
    );
    const bomb = () => checkUncompressedLength(stream(1000, 3));
    expect(bomb).toThrow(
      expect.objectContaining({ reason: "length-over-expansion", declared: 1000, limit: 64 }),
    );
    expect(() => resolveMaxLength({ maxLength: -1 })).toThrow(
      expect.objectContaining({ reason: "bad-options", code: "INVALID_ARGUMENT" }),
    );
    expect(() => maxCompressedLength(-1)).toThrow(
      expect.objectContaining({ reason: "bad-argument" }),
    );
    expect(() => assertOutputLength(new Uint8Array(3), 4, "lib")).toThrow(
      expect.objectContaining({ reason: "backend-rejected", declared: 4, produced: 3 }),
    );
  });

  it("checkOptions names the options and the keys it knows", () => {
    expect(() => checkOptions(3 as never, ["a", "b"], "bounds")).toThrow(
      /bounds must be an object with a, b, got number 3/,
    );
    expect(() => checkOptions({ a: 1, c: 2 }, ["a", "b"], "bounds")).toThrow(
      /bounds has an unknown key "c"; known: a, b/,
    );
    expect(messageOf(() => checkOptions(false as never, ["a"]), "INVALID_ARGUMENT")).toBe(
      "options must be an object with a, got boolean false",
    );
    expect(messageOf(() => checkOptions({ A: 1 }, ["a"]), "INVALID_ARGUMENT")).toBe(
      'options has an unknown key "A" (did you mean "a"?); known: a',
    );
    expect(codeOf(() => checkOptions({ a: 1 }, ["a", "b"]))).toBe("no error");
    expect(checkOptions({ a: 1, b: undefined }, ["a", "b"])).toEqual({ a: 1, b: undefined });
    expect(codeOf(() => checkOptions(undefined, ["a"]))).toBe("no error");
  });
});

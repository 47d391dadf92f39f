import { describe, expect, it } from "vitest";
import { SnappyError } from "./errors.js";
import {
  assertBytes,
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
    expect(checkUncompressedLength(stream(64, 3))).toEqual({ length: 64, headerSize: 1 });
    expect(checkUncompressedLength(Uint8Array.of(0))).toEqual({ length: 0, headerSize: 1 });
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
    expect(checkUncompressedLength(Uint8Array.of(0), { maxLength: 0 })).toEqual({
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
    expect(codeOf(() => assertBytes(null))).toBe("INVALID_ARGUMENT");
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
  it("assertBytes rejects a Proxy of a Uint8Array and an object inheriting from one", () => {
    // Both pass `instanceof Uint8Array`, and every typed-array method throws a TypeError on them.
    const fakes = [new Proxy(new Uint8Array(8), {}), Object.create(Uint8Array.prototype)];
    for (const fake of fakes) {
      expect(codeOf(() => assertBytes(fake))).toBe("INVALID_ARGUMENT");
      expect(() => assertBytes(fake)).toThrow(/not a real Uint8Array/);
      expect(codeOf(() => checkUncompressedLength(fake))).toBe("INVALID_ARGUMENT");
    }
    expect(messageOf(() => assertBytes(fakes[0], "output"), "INVALID_ARGUMENT")).toBe(
      "output is not a real Uint8Array (a Proxy, or an object that inherits from one)",
    );
    expect(codeOf(() => assertBytes(Buffer.from([1])))).toBe("no error");
    expect(codeOf(() => assertBytes(new Uint8Array(new SharedArrayBuffer(4))))).toBe("no error");
  });

  it("says what it got instead of a Uint8Array", () => {
    for (const [value, got] of [
      [null, "null"],
      [undefined, "undefined"],
      [[1, 2], "an array"],
      [10, "number 10"],
      [true, "boolean true"],
      ["abc", "string"],
      [{}, "object"],
      [new Uint16Array(2), "object"],
    ] as const) {
      expect(messageOf(() => assertBytes(value), "INVALID_ARGUMENT")).toBe(
        `input must be a Uint8Array, got ${got}`,
      );
    }
    expect(messageOf(() => assertBytes(3, "ssz"), "INVALID_ARGUMENT")).toBe(
      "ssz must be a Uint8Array, got number 3",
    );
  });

  it("uncompress options: a value where the object goes, or an unknown key, is refused", () => {
    const ok = stream(10, 3);
    // snappyjs takes maxLength positionally; a migrating caller's limit must not vanish.
    for (const bad of [10, "10", null, true, [10]]) {
      expect(
        codeOf(() => checkUncompressedLength(ok, bad as never)),
        String(bad),
      ).toBe("INVALID_ARGUMENT");
    }
    expect(() => checkUncompressedLength(ok, { maxlength: 10 } as never)).toThrow(
      /unknown key "maxlength" \(did you mean "maxLength"\?\)/,
    );
    // An array is an object: its indexes are unknown keys.
    expect(messageOf(() => checkUncompressedLength(ok, [10] as never), "INVALID_ARGUMENT")).toBe(
      'options has an unknown key "0"; known: maxLength',
    );
    expect(messageOf(() => checkUncompressedLength(ok, null as never), "INVALID_ARGUMENT")).toBe(
      "options must be an object with maxLength, got null",
    );
    expect(
      messageOf(
        () => checkUncompressedLength(ok, { maxLength: 5, x: 1 } as never),
        "INVALID_ARGUMENT",
      ),
    ).toBe('options has an unknown key "x"; known: maxLength');
    const inherited = Object.create({ limit: 5 }) as { maxLength?: number };
    expect(codeOf(() => checkUncompressedLength(ok, inherited))).toBe("INVALID_ARGUMENT");
    for (const fine of [undefined, {}, { maxLength: undefined }, { maxLength: 10 }]) {
      expect(codeOf(() => checkUncompressedLength(ok, fine))).toBe("no error");
    }
  });

  it("checkOptions names the options and the keys it knows", () => {
    expect(() => checkOptions(3, ["a", "b"], "bounds")).toThrow(
      /bounds must be an object with a, b, got number 3/,
    );
    expect(() => checkOptions({ a: 1, c: 2 }, ["a", "b"], "bounds")).toThrow(
      /bounds has an unknown key "c"; known: a, b/,
    );
    expect(messageOf(() => checkOptions(false, ["a"]), "INVALID_ARGUMENT")).toBe(
      "options must be an object with a, got boolean false",
    );
    expect(messageOf(() => checkOptions({ A: 1 }, ["a"]), "INVALID_ARGUMENT")).toBe(
      'options has an unknown key "A" (did you mean "a"?); known: a',
    );
    expect(codeOf(() => checkOptions({ a: 1 }, ["a", "b"]))).toBe("no error");
    expect(codeOf(() => checkOptions(undefined, ["a"]))).toBe("no error");
  });
});

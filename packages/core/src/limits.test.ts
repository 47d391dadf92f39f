import { describe, expect, it } from "vitest";
import { SnappyError } from "./errors.js";
import {
  assertBytes,
  assertOutputLength,
  checkOptions,
  checkUncompressedLength,
  DEFAULT_MAX_LENGTH,
  maxCompressedLength,
  maxExpandedLength,
} from "./limits.js";
import { encodeUncompressedLength } from "./varint.js";

const stream = (declared: number, bodyLength: number) => {
  const header = encodeUncompressedLength(declared);
  const bytes = new Uint8Array(header.length + bodyLength);
  bytes.set(header);
  return bytes;
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
    expect(codeOf(() => checkUncompressedLength(stream(64, 3)))).toBe("no error");
    expect(codeOf(() => checkUncompressedLength(stream(65, 3)))).toBe("CORRUPT_INPUT");
    expect(codeOf(() => checkUncompressedLength(stream(2 ** 32 - 1, 5)))).toBe("LENGTH_LIMIT");
    expect(
      codeOf(() => checkUncompressedLength(stream(2 ** 32 - 1, 5), { maxLength: 2 ** 32 })),
    ).toBe("CORRUPT_INPUT");
  });

  it("rejects bad arguments with INVALID_ARGUMENT", () => {
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
    expect(codeOf(() => assertBytes(Buffer.from([1])))).toBe("no error");
    expect(codeOf(() => assertBytes(new Uint8Array(new SharedArrayBuffer(4))))).toBe("no error");
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
    expect(codeOf(() => checkOptions({ a: 1 }, ["a", "b"]))).toBe("no error");
    expect(codeOf(() => checkOptions(undefined, ["a"]))).toBe("no error");
  });
});

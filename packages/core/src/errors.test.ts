import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  isSnappyError,
  REASON_CODES,
  REASONS,
  SnappyError,
  toSnappyError,
  withContext,
} from "./errors.js";

describe("isSnappyError", () => {
  it("is true for a SnappyError, with its code or any code", () => {
    const error = new SnappyError("length-over-limit", "too long", { declared: 2, limit: 1 });
    expect(isSnappyError(error)).toBe(true);
    expect(isSnappyError(error, "LENGTH_LIMIT")).toBe(true);
    expect(isSnappyError(error, "CORRUPT_INPUT")).toBe(false);
  });

  it("is false for anything else, whatever code is asked for", () => {
    const lookalike = Object.assign(new Error("x"), { code: "CORRUPT_INPUT" });
    for (const other of [lookalike, new TypeError("x"), null, "CORRUPT_INPUT"]) {
      expect(isSnappyError(other)).toBe(false);
      expect(isSnappyError(other, "CORRUPT_INPUT")).toBe(false);
    }
  });
});

describe("toSnappyError", () => {
  it("passes a SnappyError through unchanged", () => {
    const error = new SnappyError("checksum-mismatch", "crc", {
      at: 0,
      expected: 1,
      actual: 2,
      length: 3,
    });
    expect(toSnappyError(error, "lib")).toBe(error);
  });

  it("wraps anything else as CORRUPT_INPUT, or the code given, keeping it as the cause", () => {
    const cause = new RangeError("offset out of range");
    const wrapped = toSnappyError(cause, "lib@1 rejected the stream");
    expect(wrapped).toBeInstanceOf(SnappyError);
    expect([wrapped.name, wrapped.code, wrapped.message]).toEqual([
      "SnappyError",
      "CORRUPT_INPUT",
      "lib@1 rejected the stream: offset out of range",
    ]);
    expect(wrapped.cause).toBe(cause);
    expect(wrapped.reason).toBe("backend-rejected");
    const thrown = toSnappyError("out of memory", "lib@1 failed", "BACKEND_ERROR");
    expect([thrown.code, thrown.message, thrown.cause]).toEqual([
      "BACKEND_ERROR",
      "lib@1 failed: out of memory",
      "out of memory",
    ]);
    expect(thrown.reason).toBe("backend-failed");
    expect(toSnappyError(cause, "load", "UNSUPPORTED").reason).toBe("unsupported");
    expect(toSnappyError(cause, "arg", "INVALID_ARGUMENT").reason).toBe("bad-argument");
  });
});

describe("SnappyError", () => {
  it("derives its code from its reason and carries the numbers as fields", () => {
    const error = new SnappyError("offset-past-output", "copy offset 9 reaches back too far", {
      offset: 9,
      produced: 4,
      at: 7,
    });
    expect([error.code, error.reason, error.offset, error.produced, error.at]).toEqual([
      "CORRUPT_INPUT",
      "offset-past-output",
      9,
      4,
      7,
    ]);
    expect(error.declared).toBeUndefined();
    expect("declared" in error).toBe(false);
    expect(error.cause).toBeUndefined();
    const cause = new Error("inner");
    expect(new SnappyError("truncated", "x", { at: 0, cause }).cause).toBe(cause);
  });

  it("has one code per reason, each a code of SnappyErrorCode", () => {
    const codes = new Set([
      "CORRUPT_INPUT",
      "LENGTH_LIMIT",
      "CHECKSUM_MISMATCH",
      "UNSUPPORTED",
      "INVALID_ARGUMENT",
      "OUTPUT_TOO_SMALL",
      "BACKEND_ERROR",
    ]);
    for (const [reason, code] of Object.entries(REASON_CODES)) {
      expect(codes.has(code), reason).toBe(true);
      expect(new SnappyError(reason as "not-bytes", "m").code).toBe(code);
    }
    expect(REASON_CODES["length-over-limit"]).toBe("LENGTH_LIMIT");
    expect(REASON_CODES["checksum-mismatch"]).toBe("CHECKSUM_MISMATCH");
  });

  it("refuses a reason it does not know", () => {
    expect(() => new SnappyError("CORRUPT_INPUT" as never, "m")).toThrow(TypeError);
  });
});

describe("withContext", () => {
  it("prefixes the message, keeps reason and numbers, adds details and the cause", () => {
    const inner = new SnappyError("offset-zero", "copy with offset 0 (at byte 3)", {
      at: 3,
      produced: 2,
    });
    const outer = withContext(inner, "compressed chunk at byte 10", { at: 10 });
    expect([outer.reason, outer.code, outer.at, outer.produced, outer.cause]).toEqual([
      "offset-zero",
      "CORRUPT_INPUT",
      10,
      2,
      inner,
    ]);
    expect(outer.message).toBe("compressed chunk at byte 10: copy with offset 0 (at byte 3)");
    const cause = new Error("backend");
    expect(withContext(inner, "lib", { cause }).cause).toBe(cause);
  });
});

describe("REASONS", () => {
  it("is the README's table: reason, code, fault and fields, in order", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const rows = readme
      .split("\n")
      .filter((line) => /^\| `[a-z-]+` /.test(line))
      .map((line) =>
        line
          .split("|")
          .slice(1, 5)
          .map((cell) => cell.trim()),
      );
    const expected = Object.entries(REASONS).map(([reason, spec]) => [
      `\`${reason}\``,
      `\`${spec.code}\``,
      spec.fault,
      [
        ...spec.fields.map((field) => `\`${field}\``),
        ...("optional" in spec ? spec.optional : []).map((field) => `\`${field}?\``),
      ].join(", "),
    ]);
    expect(rows).toEqual(expected);
  });

  it("narrows an error to its reason's fields, and carries no others", () => {
    const error = new SnappyError("offset-zero", "copy with offset 0", {
      at: 3,
      produced: 2,
      // Not a field of offset-zero: dropped (the type refuses it too).
      ...({ offset: 9 } as object),
    });
    expect([error.fault, error.at, error.produced, error.offset]).toEqual([
      "peer",
      3,
      2,
      undefined,
    ]);
    const caught: unknown = error;
    if (caught instanceof SnappyError && caught.reason === "offset-zero") {
      // Compiles only because the reason narrows the type: `at` is a number, not optional.
      const at: number = caught.at;
      expect(at).toBe(3);
    }
  });
});

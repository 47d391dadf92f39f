import { describe, expect, it } from "vitest";
import { isSnappyError, SnappyError, toSnappyError } from "./errors.js";

describe("isSnappyError", () => {
  it("is true for a SnappyError, with its code or any code", () => {
    const error = new SnappyError("LENGTH_LIMIT", "too long");
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
    const error = new SnappyError("CHECKSUM_MISMATCH", "crc");
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
    const thrown = toSnappyError("out of memory", "lib@1 failed", "BACKEND_ERROR");
    expect([thrown.code, thrown.message, thrown.cause]).toEqual([
      "BACKEND_ERROR",
      "lib@1 failed: out of memory",
      "out of memory",
    ]);
  });
});

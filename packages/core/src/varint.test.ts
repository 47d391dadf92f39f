import { describe, expect, it } from "vitest";
import { isSnappyError } from "./errors.js";
import { encodeUncompressedLength, encodeVarint, readUncompressedLength } from "./varint.js";

const corrupt = (bytes: number[]) => {
  try {
    readUncompressedLength(Uint8Array.from(bytes));
  } catch (error) {
    expect(isSnappyError(error, "CORRUPT_INPUT")).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected readUncompressedLength to throw");
};

describe("readUncompressedLength", () => {
  it("reads 1- to 5-byte varints", () => {
    expect(readUncompressedLength(Uint8Array.of(0))).toEqual({ length: 0, headerSize: 1 });
    expect(readUncompressedLength(Uint8Array.of(0x7f, 0xaa))).toEqual({
      length: 127,
      headerSize: 1,
    });
    expect(readUncompressedLength(Uint8Array.of(0x80, 0x01))).toEqual({
      length: 128,
      headerSize: 2,
    });
    expect(readUncompressedLength(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f))).toEqual({
      length: 2 ** 32 - 1,
      headerSize: 5,
    });
  });

  it("stops at the preamble's last byte, whatever the body's first bytes are", () => {
    // The body after a 1- or 2-byte preamble starts with a byte < 0x80 (a literal tag),
    // which must not be read as more of the length.
    expect(readUncompressedLength(Uint8Array.of(0x80, 0x01, 0x05))).toEqual({
      length: 128,
      headerSize: 2,
    });
    expect(readUncompressedLength(Uint8Array.of(0x05, 0x80, 0x01))).toEqual({
      length: 5,
      headerSize: 1,
    });
    expect(readUncompressedLength(Uint8Array.of(0x81, 0x82, 0x03, 0x7f))).toEqual({
      length: 1 + (2 << 7) + (3 << 14),
      headerSize: 3,
    });
    // The same preamble alone: exactly the 3 bytes the loop-free read needs.
    expect(readUncompressedLength(Uint8Array.of(0x81, 0x82, 0x03))).toEqual({
      length: 1 + (2 << 7) + (3 << 14),
      headerSize: 3,
    });
    // And a 4-byte one with a body: past the loop-free read.
    expect(readUncompressedLength(Uint8Array.of(0x80, 0x80, 0x80, 0x01, 0x00))).toEqual({
      length: 2 ** 21,
      headerSize: 4,
    });
  });

  it("round-trips encodeUncompressedLength at the byte boundaries", () => {
    for (const n of [0, 1, 127, 128, 16383, 16384, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 32 - 1]) {
      const bytes = encodeUncompressedLength(n);
      expect(readUncompressedLength(bytes)).toEqual({ length: n, headerSize: bytes.length });
    }
  });

  it("rejects empty, truncated, overlong and > 32-bit varints", () => {
    expect(corrupt([])).toMatch(/empty/);
    expect(corrupt([0x80])).toMatch(/truncated.*1 varint/);
    expect(corrupt([0xff, 0xff, 0xff, 0xff])).toMatch(/truncated/);
    expect(corrupt([0xff, 0xff, 0xff, 0xff, 0x10])).toMatch(/exceeds 2\^32-1/);
    expect(corrupt([0x80, 0x80, 0x80, 0x80, 0x80, 0x00])).toMatch(/overlong/);
  });

  it("encodeUncompressedLength refuses out-of-range values", () => {
    expect(() => encodeUncompressedLength(-1)).toThrow(/not in 0\.\.2\^32-1/);
    expect(() => encodeUncompressedLength(2 ** 32)).toThrow(/not in/);
    expect(() => encodeUncompressedLength(1.5)).toThrow(/not in/);
    expect(() => encodeUncompressedLength(-1)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});

describe("encodeVarint", () => {
  it("writes 7 bits a byte, low first, past 32 bits", () => {
    expect([...encodeVarint(0)]).toEqual([0]);
    expect([...encodeVarint(300)]).toEqual([0xac, 0x02]);
    expect([...encodeVarint(2 ** 32)]).toEqual([0x80, 0x80, 0x80, 0x80, 0x10]);
    expect(encodeVarint(Number.MAX_SAFE_INTEGER).length).toBe(8);
  });

  it("refuses negative, fractional and unsafe values", () => {
    for (const bad of [-1, 1.5, 2 ** 53, Number.NaN]) {
      expect(() => encodeVarint(bad)).toThrow(/not a safe integer/);
      expect(() => encodeVarint(bad)).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
  });
});

import { describe, expect, it } from "vitest";
import { isSnappyError } from "./errors.js";
import { validateCompressed } from "./validate.js";

const rejects = (bytes: number[], pattern: RegExp) => {
  try {
    validateCompressed(Uint8Array.from(bytes));
  } catch (error) {
    expect(isSnappyError(error, "CORRUPT_INPUT")).toBe(true);
    expect((error as Error).message).toMatch(pattern);
    return;
  }
  throw new Error(`accepted ${bytes}`);
};

describe("validateCompressed", () => {
  it("accepts literals and every copy form", () => {
    expect(validateCompressed(Uint8Array.of(0))).toBe(0);
    // "abcd" literal then copy-1 (len 4, offset 4), copy-2 (len 8, offset 8), copy-4 (len 1, offset 1)
    const ok = [17, 0x0c, 97, 98, 99, 100, 0x01, 4, 0x1e, 8, 0, 0x03, 1, 0, 0, 0];
    expect(validateCompressed(Uint8Array.from(ok))).toBe(17);
    // literal with a 1-byte extended length (60 → 1 extra byte): 61 bytes
    expect(validateCompressed(Uint8Array.from([61, 60 << 2, 60, ...new Uint8Array(61)]))).toBe(61);
  });

  it("rejects each way a stream can be wrong", () => {
    rejects([4, 0x0c, 97, 98], /literal of 4 bytes runs past/);
    rejects([4, 0xf0], /truncated literal length/);
    rejects([4, 0x0c, 97, 98, 99, 100, 0x01], /truncated copy tag/);
    rejects([8, 0x0c, 97, 98, 99, 100, 0x01, 0], /offset 0/);
    rejects([8, 0x0c, 97, 98, 99, 100, 0x01, 5], /offset 5 reaches before the 4 bytes/);
    rejects([4, 0x01, 1], /offset 1 reaches before the 0 bytes/);
    rejects([3, 0x0c, 97, 98, 99, 100], /more than the 3 bytes/);
    rejects([5, 0x0c, 97, 98, 99, 100], /produces 4 bytes, but declares 5/);
  });
});

describe("validateCompressed on damaged streams", () => {
  // The fast walk only decides; a second walk names the reason, so every rejection must
  // come with one (the second walk finds what the first did). Streams: two accepted ones,
  // each byte replaced by every value, and each prefix. (Whether the accepted ones are
  // right is the fuzzer's cross-check against an oracle decoder, on every input.)
  const ok = [17, 0x0c, 97, 98, 99, 100, 0x01, 4, 0x1e, 8, 0, 0x03, 1, 0, 0, 0];
  const long = [61 + 12, 60 << 2, 60, ...new Uint8Array(61), 0x2e, 16, 0];
  const damaged: number[][] = [];
  for (const base of [ok, long]) {
    for (let i = 0; i < base.length; i++) {
      damaged.push(base.slice(0, i));
      for (let v = 0; v < 256; v++) damaged.push(base.map((b, j) => (j === i ? v : b)));
    }
  }

  it("gives a reason for every stream it rejects", () => {
    let rejected = 0;
    for (const bytes of damaged) {
      try {
        validateCompressed(Uint8Array.from(bytes));
      } catch (error) {
        rejected++;
        expect(isSnappyError(error, "CORRUPT_INPUT")).toBe(true);
        expect((error as Error).message).not.toBe("stream rejected");
      }
    }
    expect(rejected).toBeGreaterThan(2000);
  });
});

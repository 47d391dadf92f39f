import { describe, expect, it, vi } from "vitest";
import { isSnappyError, type SnappyError } from "./errors.js";
import { checkUncompressedLength } from "./limits.js";
import { refuseWrappingLiterals, shortestLiterals, validateCompressed } from "./validate.js";
import { encodeUncompressedLength } from "./varint.js";

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

  it("reads 2-, 3- and 4-byte literal lengths and ends on any element", () => {
    // One literal of n bytes (value 7) with its length in `lengthBytes` bytes after the tag.
    const literalStream = (n: number, lengthBytes: number) => {
      const head = [
        ...encodeUncompressedLength(n),
        (59 + lengthBytes) << 2,
        ...[0, 8, 16, 24].slice(0, lengthBytes).map((shift) => ((n - 1) >>> shift) & 0xff),
      ];
      const stream = new Uint8Array(head.length + n).fill(7);
      stream.set(head);
      return stream;
    };
    for (const [n, lengthBytes] of [
      [300, 2],
      [4, 3], // non-minimal lengths are valid: the data's first byte is not a length byte
      [70_000, 3],
      [4, 4],
      [2 ** 24 + 1, 4],
    ] as const) {
      expect(validateCompressed(literalStream(n, lengthBytes)), `${n} in ${lengthBytes}`).toBe(n);
    }
    // A stream ending with a copy-1 (length 5), a copy-2 and a copy-4.
    const abcd = [0x0c, 97, 98, 99, 100];
    expect(validateCompressed(Uint8Array.from([9, ...abcd, 0x05, 4]))).toBe(9);
    expect(validateCompressed(Uint8Array.from([8, ...abcd, 0x0e, 4, 0]))).toBe(8);
    expect(validateCompressed(Uint8Array.from([8, ...abcd, 0x0f, 4, 0, 0, 0]))).toBe(8);
  });

  it("rejects a copy cut short at the end of the input after 300 bytes, whatever its offset bytes", () => {
    // 300 bytes produced (a literal with a 2-byte length), then a copy-1 with its offset's
    // top bits in the tag (offset 256 + the missing byte), a copy-2 and a copy-4 missing
    // their last offset byte: read as offsets they would be in range, and the total right.
    const produced = [61 << 2, 43, 1, ...new Uint8Array(300)];
    rejects([0xb0, 0x02, ...produced, 0x21], /^truncated copy tag \(at byte 305\)$/);
    rejects([0xb0, 0x02, ...produced, 0x0e, 4], /^truncated copy tag \(at byte 305\)$/);
    rejects([0xb0, 0x02, ...produced, 0x0f, 4, 0, 0], /^truncated copy tag \(at byte 305\)$/);
  });

  it("rejects a copy-4 offset of 2^24 or more that reaches before the output", () => {
    rejects(
      [8, 0x0c, 97, 98, 99, 100, 0x0f, 1, 0, 0, 1],
      /copy offset 16777217 reaches before the 4 bytes produced \(at byte 6\)/,
    );
  });

  it("names each reason and where it is", () => {
    const abcd = [0x0c, 97, 98, 99, 100];
    // Literal lengths present but the data is not.
    rejects([10, 60 << 2, 9], /^literal of 10 bytes runs past the end of the input \(at byte 1\)$/);
    rejects([10, 60 << 2, 9, 97, 98], /^literal of 10 bytes runs past/);
    rejects([10, 61 << 2, 0x2b, 0x01, 97], /^literal of 300 bytes runs past/);
    rejects([5, 62 << 2, 4, 0, 0, 97], /^literal of 5 bytes runs past/);
    // Each copy form with an offset past the output, and one after a valid copy of its form.
    rejects(
      [12, ...abcd, 0x0e, 0x2c, 0x01],
      /^copy offset 300 reaches before the 4 bytes produced \(at byte 6\)$/,
    );
    rejects(
      [12, ...abcd, 0x0f, 0x2c, 0x01, 0, 0],
      /^copy offset 300 reaches before the 4 bytes produced \(at byte 6\)$/,
    );
    rejects(
      [12, ...abcd, 0x21, 0x2c],
      /^copy offset 300 reaches before the 4 bytes produced \(at byte 6\)$/,
    );
    rejects([12, ...abcd, 0x01, 4, 0x01, 0], /^copy with offset 0 \(at byte 8\)$/);
    rejects([12, ...abcd, 0x0e, 4, 0, 0x0e, 0, 0], /^copy with offset 0 \(at byte 9\)$/);
    rejects(
      [12, ...abcd, 0x0f, 4, 0, 0, 0, 0x0f, 0, 0, 0, 0],
      /^copy with offset 0 \(at byte 11\)$/,
    );
    rejects([12, ...abcd, 0x0e, 4], /^truncated copy tag \(at byte 6\)$/);
    rejects([12, ...abcd, 0x0f, 4, 0, 0], /^truncated copy tag \(at byte 6\)$/);
    // A copy-1 of 5 bytes: the total is counted with its length.
    rejects([10, ...abcd, 0x05, 4], /^stream produces 9 bytes, but declares 10$/);
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

describe("validateCompressed: reasons", () => {
  /** The reason and numbers of what `validateCompressed` throws on `bytes`. */
  const fault = (bytes: number[]) => {
    try {
      validateCompressed(Uint8Array.from(bytes));
    } catch (error) {
      const { code, reason, at, declared, produced, offset, length } = error as SnappyError;
      return { code, reason, at, declared, produced, offset, length };
    }
    throw new Error(`accepted ${bytes}`);
  };
  const abcd = [0x0c, 97, 98, 99, 100];

  it("gives each fault its own reason, with the numbers", () => {
    expect(fault([8, ...abcd])).toMatchObject({ reason: "truncated", declared: 8, produced: 4 });
    expect(fault([8, 0xf0])).toMatchObject({ reason: "truncated", at: 1 });
    expect(fault([8, ...abcd, 0x01])).toMatchObject({ reason: "truncated", at: 6 });
    expect(fault([8, 0x1c, 97])).toMatchObject({ reason: "literal-past-input", at: 1, length: 8 });
    expect(fault([8, ...abcd, 0x01, 0])).toMatchObject({ reason: "offset-zero", at: 6 });
    expect(fault([8, ...abcd, 0x01, 5])).toMatchObject({
      reason: "offset-past-output",
      at: 6,
      offset: 5,
      produced: 4,
    });
    expect(fault([6, ...abcd, 0x01, 4])).toMatchObject({
      reason: "output-overrun",
      at: 6,
      declared: 6,
      produced: 4,
      length: 4,
    });
    for (const bytes of [
      [8, 0x1c, 97],
      [8, ...abcd, 0x01, 0],
      [8, ...abcd],
    ]) {
      expect(fault(bytes).code).toBe("CORRUPT_INPUT");
    }
  });
});

describe("shortestLiterals", () => {
  const rewrite = (hex: string) => {
    const input = Uint8Array.from(hex.match(/../g)!.map((x) => Number.parseInt(x, 16)));
    const out = shortestLiterals(checkUncompressedLength(input));
    return out && Buffer.from(out).toString("hex");
  };

  it("writes every literal length in its shortest form, copies and data as they are", () => {
    // 7 bytes in the tag, then 1 byte in the 1-byte length form, which the tag can hold.
    expect(rewrite("081841414141414141f00041")).toBe("0818414141414141410041");
    // 61 bytes in the 4-byte form become the 1-byte form; the copy-2 after it stays.
    const data = "ab".repeat(61);
    expect(rewrite(`7dfc3c000000${data}fe0100`)).toBe(`7df03c${data}fe0100`);
  });

  it("returns undefined when every literal already is in its shortest form", () => {
    expect(rewrite("00")).toBeUndefined();
    expect(rewrite("0818414141414141410041")).toBeUndefined();
    expect(rewrite(`3df03c${"00".repeat(61)}`)).toBeUndefined();
  });
});

describe("refuseWrappingLiterals", () => {
  it("walks an input holding a literal length of ffffffff and rejects it", () => {
    expect(() =>
      refuseWrappingLiterals(Uint8Array.of(0x00, 0xfc, 0xff, 0xff, 0xff, 0xff), 0),
    ).toThrow(expect.objectContaining({ code: "CORRUPT_INPUT", reason: "literal-past-input" }));
  });

  it("finds the five bytes at every offset and alignment, with and without Buffer", async () => {
    // Deno's Buffer search is JavaScript, so there the module searches without it.
    vi.resetModules();
    vi.stubGlobal("Deno", {});
    const portable = (await import("./validate.js")).refuseWrappingLiterals;
    vi.unstubAllGlobals();
    const wraps = [0x00, 0xfc, 0xff, 0xff, 0xff, 0xff];
    for (const refuse of [refuseWrappingLiterals, portable]) {
      for (let shift = 0; shift < 4; shift++) {
        for (let pad = 0; pad < 4; pad++) {
          const memory = new Uint8Array(shift + 6 + pad).fill(0xff);
          memory.set(wraps, shift);
          const view = memory.subarray(shift, shift + 6);
          expect(() => refuse(view, 0), `shift ${shift}, pad ${pad}`).toThrow(
            expect.objectContaining({ reason: "literal-past-input" }),
          );
        }
      }
      expect(() => refuse(Uint8Array.of(0x05, 0xfc, 0xff, 0xff, 0xff), 5)).not.toThrow();
    }
  });

  it("leaves other inputs alone, also valid ones holding those bytes as data", () => {
    // Four of the five bytes only: not scanned as a literal length (and not walked: invalid).
    expect(() =>
      refuseWrappingLiterals(Uint8Array.of(0x05, 0xfc, 0xff, 0xff, 0xff), 5),
    ).not.toThrow();
    // A literal of fc ff ff ff ff: walked, and valid.
    const valid = Uint8Array.of(0x05, 0x10, 0xfc, 0xff, 0xff, 0xff, 0xff);
    expect(() => refuseWrappingLiterals(valid, 5)).not.toThrow();
  });
});

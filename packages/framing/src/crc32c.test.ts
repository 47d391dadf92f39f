import { describe, expect, it } from "vitest";
import {
  crc32c,
  crc32cImplementation,
  crc32cNative,
  crc32cTs,
  maskChecksum,
  unmaskChecksum,
} from "./crc32c.js";
import { randomBytes } from "./test/helpers.js";

const ascii = (s: string) => new TextEncoder().encode(s);

// RFC 3720 §B.4 test vectors, plus the standard "123456789" check value.
const vectors: [string, Uint8Array, number][] = [
  ["123456789", ascii("123456789"), 0xe3069283],
  ["32 zero bytes", new Uint8Array(32), 0x8a9136aa],
  ["32 0xff bytes", new Uint8Array(32).fill(0xff), 0x62a8ab43],
  ["0..31", Uint8Array.from({ length: 32 }, (_, i) => i), 0x46dd794e],
  ["31..0", Uint8Array.from({ length: 32 }, (_, i) => 31 - i), 0x113fdb5c],
  ["empty", new Uint8Array(0), 0],
];

describe("crc32c", () => {
  it("loads the native implementation on this platform", () => {
    expect(crc32cNative).toBeTypeOf("function");
    expect(crc32cImplementation).toBe("@node-rs/crc32");
    expect(crc32c).toBe(crc32cNative);
  });

  for (const [name, impl] of [
    ["typescript", crc32cTs],
    ["native", crc32cNative!],
  ] as const) {
    it(`${name} matches the known vectors`, () => {
      for (const [label, data, expected] of vectors) {
        expect(impl(data), label).toBe(expected);
      }
    });
  }

  it("typescript and native agree on every length and alignment", () => {
    const data = randomBytes(4096, 99);
    for (let len = 0; len < 300; len++) {
      for (const offset of [0, 1, 3, 7]) {
        const view = data.subarray(offset, offset + len);
        expect(crc32cTs(view)).toBe(crc32cNative!(view));
      }
    }
    expect(crc32cTs(data)).toBe(crc32cNative!(data));
  });

  it("masks as framing_format.txt §3 says, reversibly", () => {
    expect(maskChecksum(0)).toBe(0xa282ead8);
    // x = 0xe3069283: (x >> 15) | (x << 17) = 0x2507c60d, + 0xa282ead8 = 0xc78ab0e5 (by hand).
    expect(maskChecksum(0xe3069283)).toBe(0xc78ab0e5);
    for (const x of [0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xe3069283]) {
      expect(unmaskChecksum(maskChecksum(x))).toBe(x);
    }
  });
});

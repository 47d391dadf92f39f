import { backendRejection, snappyErrorOf } from "@snappykit/conformance";
import type { SnappyCodec } from "@snappykit/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { createRaw } from "./raw.js";

const ABCDE = [97, 98, 99, 100, 101];

// Preambles @stablelib/snappy misreads, each followed by a 5-byte literal "abcde".
const MISREAD = {
  // A varint that never ends: stablelib decodes it to 0 bytes.
  endless: Uint8Array.of(0x80),
  // 2^32 + 5: the fifth byte carries more than 4 bits, and stablelib drops the excess.
  over32Bits: Uint8Array.of(0x85, 0x80, 0x80, 0x80, 0x10, 0x10, ...ABCDE),
  // 5 in a 6-byte varint: libsnappy stops at 5 bytes, stablelib reads on.
  overlong: Uint8Array.of(0x85, 0x80, 0x80, 0x80, 0x80, 0x00, 0x10, ...ABCDE),
};

let codec: SnappyCodec;
beforeAll(async () => {
  codec = await createCodec();
});

describe("@snappykit/stablelib", () => {
  it("@stablelib/snappy itself accepts preambles libsnappy rejects", async () => {
    const raw = await createRaw();
    expect(raw.uncompress(MISREAD.endless)).toEqual(new Uint8Array(0));
    expect(Array.from(raw.uncompress(MISREAD.over32Bits))).toEqual(ABCDE);
    expect(Array.from(raw.uncompress(MISREAD.overlong))).toEqual(ABCDE);
  });

  it("rejects those preambles with CORRUPT_INPUT", () => {
    for (const [what, stream] of Object.entries(MISREAD)) {
      expect(snappyErrorOf(() => codec.uncompress(stream)).code, what).toBe("CORRUPT_INPUT");
    }
  });

  it("rejects a hostile preamble before allocating", () => {
    const twoGiB = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x07, 0, 0, 0, 0);
    expect(snappyErrorOf(() => codec.uncompress(twoGiB)).code).toBe("LENGTH_LIMIT");
    expect(snappyErrorOf(() => codec.uncompress(twoGiB, { maxLength: 2 ** 32 })).code).toBe(
      "CORRUPT_INPUT",
    );
  });

  it("wraps the decoder's own rejections as CORRUPT_INPUT with the library and its reason", () => {
    const cases = [
      Uint8Array.of(10, 8, 65, 66, 67), // declares more than it holds
      Uint8Array.of(2, 8, 65, 66, 67), // declares less than it holds
      Uint8Array.of(8, 0x0c, 97, 98, 99, 100, 0x01, 0), // copy with offset 0
    ];
    for (const stream of cases) backendRejection(codec, stream);
  });
});

describe("maxCompressedLength", () => {
  it("is the library's own bound where it has one, and defined up to 2^32-1 past it", async () => {
    const { maxCompressedLength: libraryBound } = await import("@stablelib/snappy");
    const LIBRARY_MAX = 1_840_700_241; // the library returns 0 above this
    for (const n of [0, 1, 5, 6, 7, 65_536, 1_000_001, LIBRARY_MAX - 1, LIBRARY_MAX]) {
      expect(codec.maxCompressedLength!(n), `${n}`).toBe(libraryBound(n));
    }
    for (const n of [LIBRARY_MAX + 1, 2 ** 31, 2 ** 32 - 1]) {
      expect(libraryBound(n)).toBe(0);
      expect(codec.maxCompressedLength!(n), `${n}`).toBe(Math.ceil(32 + n + n / 6));
    }
  });
});

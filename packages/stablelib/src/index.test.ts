import { readFileSync } from "node:fs";
import { snappyErrorOf } from "@snappykit/conformance";
import type { SnappyCodec } from "@snappykit/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createCodec, createRaw } from "./index.js";

// "hello hello hello hello" as Google's libsnappy writes it: a literal, then a copy.
const HELLO = Uint8Array.of(23, 20, 104, 101, 108, 108, 111, 32, 66, 6, 0);
const HELLO_TEXT = new TextEncoder().encode("hello hello hello hello");
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
  it("names the @stablelib/snappy version that is installed", () => {
    const installed = JSON.parse(
      readFileSync(
        new URL("../node_modules/@stablelib/snappy/package.json", import.meta.url),
        "utf8",
      ),
    ) as { version: string };
    expect(codec.library).toBe(`@stablelib/snappy@${installed.version}`);
    expect(codec.name).toBe("stablelib");
    expect(codec.runtime).toBe("js");
  });

  it("decodes libsnappy's bytes, including from a Buffer and an offset view", () => {
    expect(codec.uncompress(HELLO)).toEqual(HELLO_TEXT);
    expect(Buffer.from(codec.uncompress(Buffer.from(HELLO)))).toEqual(Buffer.from(HELLO_TEXT));
    const padded = new Uint8Array(HELLO.length + 3);
    padded.set(HELLO, 3);
    expect(codec.uncompress(padded.subarray(3))).toEqual(HELLO_TEXT);
  });

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
    for (const stream of cases) {
      const error = snappyErrorOf(() => codec.uncompress(stream));
      expect(error.code).toBe("CORRUPT_INPUT");
      expect(error.message).toMatch(/^@stablelib\/snappy@\d+\.\d+\.\d+ rejected the stream: /);
      expect(error.cause).toBeInstanceOf(Error);
    }
  });

  it("returns arrays that later calls do not overwrite", () => {
    const a = codec.compress(new Uint8Array(3000).fill(1));
    const aCopy = a.slice();
    const ua = codec.uncompress(a);
    const b = codec.compress(new Uint8Array(3000).fill(2));
    codec.uncompress(b);
    expect(a).toEqual(aCopy);
    expect(a.buffer).not.toBe(b.buffer);
    expect(ua.every((x) => x === 1)).toBe(true);
  });

  it("wraps bad arguments as INVALID_ARGUMENT", () => {
    expect(snappyErrorOf(() => codec.compress("abc" as never)).code).toBe("INVALID_ARGUMENT");
    expect(snappyErrorOf(() => codec.uncompress([1, 2] as never)).code).toBe("INVALID_ARGUMENT");
  });

  it("createRaw names the same library", async () => {
    const raw = await createRaw();
    expect(raw.library).toBe(codec.library);
    expect(raw.uncompress(raw.compress(HELLO_TEXT))).toEqual(HELLO_TEXT);
  });
});

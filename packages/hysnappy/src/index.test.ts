import { snappyErrorOf, thrown } from "@snappykit/conformance";
import { isSnappyError, type SnappyCodec } from "@snappykit/core";
import { snappyUncompressor } from "hysnappy";
import { beforeAll, describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { createRaw } from "./raw.js";

// "hello hello hello hello" as Google's libsnappy writes it: a literal, then a copy.
const HELLO = Uint8Array.of(23, 20, 104, 101, 108, 108, 111, 32, 66, 6, 0);
const HELLO_TEXT = new TextEncoder().encode("hello hello hello hello");
const codeOf = (fn: () => unknown) => snappyErrorOf(fn).code;

let codec: SnappyCodec;
beforeAll(async () => {
  codec = await createCodec();
});

describe("@snappykit/hysnappy", () => {
  it("rejects a 4 GiB preamble before touching wasm memory", () => {
    const hostile = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f, 0);
    expect(codeOf(() => codec.uncompress(hostile))).toBe("LENGTH_LIMIT");
    expect(codeOf(() => codec.uncompress(hostile, { maxLength: 2 ** 32 }))).toBe("CORRUPT_INPUT");
  });

  // The hazard the adapter exists for: hysnappy returns as many bytes as it is told,
  // and bytes past what it decoded are whatever earlier calls left in wasm memory.
  it("hysnappy itself returns stale wasm memory when told a longer length", () => {
    const uncompress = snappyUncompressor();
    // A 60-byte literal of "S": it sits in wasm memory after this call.
    uncompress(Uint8Array.of(60, 59 << 2, ...new Uint8Array(60).fill(0x53)), 60);
    const out = uncompress(Uint8Array.of(3, 8, 65, 66, 67), 40);
    expect(Array.from(out.subarray(0, 3))).toEqual([65, 66, 67]);
    expect(out.subarray(3).every((b) => b === 0x53)).toBe(true);
  });

  it("rejects streams whose declared length differs from their content, after a big decode", () => {
    codec.uncompress(codec.compress(new Uint8Array(50_000).fill(0x53)));
    expect(codeOf(() => codec.uncompress(Uint8Array.of(10, 8, 65, 66, 67)))).toBe("CORRUPT_INPUT");
    expect(codeOf(() => codec.uncompress(Uint8Array.of(2, 8, 65, 66, 67)))).toBe("CORRUPT_INPUT");
    expect(codec.uncompress(Uint8Array.of(3, 8, 65, 66, 67))).toEqual(Uint8Array.of(65, 66, 67));
  });

  it("rejects copies that reach before the output with CORRUPT_INPUT", () => {
    const offsetZero = Uint8Array.of(8, 0x0c, 97, 98, 99, 100, 0x01, 0);
    const tooFar = Uint8Array.of(8, 0x0c, 97, 98, 99, 100, 0x01, 5);
    for (const stream of [offsetZero, tooFar]) {
      expect(codeOf(() => codec.uncompress(stream))).toBe("CORRUPT_INPUT");
    }
  });

  it("createRaw calls hysnappy with the preamble's length and nothing else", async () => {
    const raw = await createRaw();
    expect(raw.uncompress(HELLO)).toEqual(HELLO_TEXT);
    expect(isSnappyError(thrown(() => raw.uncompress(Uint8Array.of(10, 8, 65, 66, 67))))).toBe(
      false,
    );
  });
});

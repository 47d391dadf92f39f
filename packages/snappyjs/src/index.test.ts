import { isSnappyError } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { createRaw } from "./raw.js";

const text = new TextEncoder().encode("sync committee ".repeat(200));

describe("@snappykit/snappyjs", () => {
  it("returns plain Uint8Arrays even for Buffer input (snappyjs alone would return a Buffer)", async () => {
    const codec = await createCodec();
    const compressed = codec.compress(text);
    expect(Buffer.isBuffer(compressed)).toBe(false);
    expect(codec.uncompress(compressed)).toEqual(text);
    const raw = await createRaw();
    expect(Buffer.isBuffer(raw.uncompress(Buffer.from(compressed)))).toBe(true);
    expect(Buffer.isBuffer(codec.uncompress(Buffer.from(compressed)))).toBe(false);
    expect(Buffer.isBuffer(codec.compress(Buffer.from(text)))).toBe(false);
  });

  // The raw library's measured failures, each caught by the adapter's validation pass.
  it.each([
    [
      "half a valid stream (raw: full length, zero-padded)",
      (c: Uint8Array) => c.slice(0, c.length >> 1),
    ],
    [
      "a 10-byte input claiming 2 GiB (raw: 2 GiB of zeros)",
      () => Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x08, 0, 0, 0, 0, 0),
    ],
    [
      "a 6-byte input with a 4 GiB literal (raw: runs for > 10 s)",
      () => Uint8Array.of(0x01, 0xfc, 0x00, 0x00, 0xff, 0xff),
    ],
  ])("rejects %s with SnappyError", async (_, make) => {
    const codec = await createCodec();
    const input = make(codec.compress(text));
    expect(() => codec.uncompress(input)).toThrow(expect.objectContaining({ name: "SnappyError" }));
    try {
      codec.uncompress(input);
    } catch (error) {
      expect(isSnappyError(error, "CORRUPT_INPUT") || isSnappyError(error, "LENGTH_LIMIT")).toBe(
        true,
      );
    }
  });

  it("the raw library really does zero-fill a stream cut at an element boundary", async () => {
    // Preamble says 100 bytes, the body holds one 4-byte literal.
    const cut = Uint8Array.of(100, 0x0c, 97, 98, 99, 100);
    const out = (await createRaw()).uncompress(cut);
    expect(out.length).toBe(100);
    expect(out[99]).toBe(0);
    const codec = await createCodec();
    expect(() => codec.uncompress(cut)).toThrow(/declares 100/);
  });
});

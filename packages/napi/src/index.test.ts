import { backendRejection } from "@snappykit/conformance";
import { describe, expect, it } from "vitest";
import { createCodec, createVariants } from "./index.js";
import { createRaw } from "./raw.js";

const text = new TextEncoder().encode("attestation ".repeat(500));

describe("@snappykit/napi", () => {
  it("writes the same bytes as snappy@7 called directly, copied or not", async () => {
    const raw = await createRaw();
    const expected = raw.compress(text);
    for (const codec of [await createCodec(), ...(await createVariants())]) {
      expect(Buffer.from(codec.compress(text)).equals(Buffer.from(expected))).toBe(true);
      expect(codec.uncompress(expected)).toEqual(Uint8Array.from(text));
    }
  });

  it("decodes on both sides of the 256 KiB copy threshold, sync and on the thread pool", async () => {
    const codec = await createCodec();
    for (const length of [256 * 1024, 256 * 1024 + 1]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31) % 251);
      const compressed = codec.compress(bytes);
      // Buffer#equals: vitest's deep equality takes seconds on arrays this long.
      expect(Buffer.from(codec.uncompress(compressed)).equals(bytes)).toBe(true);
      expect(Buffer.from(await codec.uncompressAsync!(compressed)).equals(bytes)).toBe(true);
    }
  });

  it("turns snap's own errors into CORRUPT_INPUT with the library named", async () => {
    // A copy reaching before the output: passes the length guard, so snap itself rejects it.
    backendRejection(await createCodec(), Uint8Array.of(8, 0x0c, 97, 98, 99, 100, 0x01, 9));
  });

  it("refuses options it does not know", async () => {
    await expect(createCodec({ copyOutput: false } as never)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});

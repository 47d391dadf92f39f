import { backendRejection } from "@snappykit/conformance";
import { describe, expect, it } from "vitest";
import { createCodec, createRaw, createVariants } from "./index.js";

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

  it("turns snap's own errors into CORRUPT_INPUT with the library named", async () => {
    // A copy reaching before the output: passes the length guard, so snap itself rejects it.
    backendRejection(await createCodec(), Uint8Array.of(8, 0x0c, 97, 98, 99, 100, 0x01, 9));
  });
});

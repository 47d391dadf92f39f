// Tests for this backend's own quirks; the shared behaviour is in conformance.test.ts.
import { describe, expect, it } from "vitest";
import { createCodec, createRaw } from "./index.js";

const text = new TextEncoder().encode("attestation ".repeat(500));

describe("@snappykit/ADAPTER_ID", () => {
  it("names the backend version it loaded", async () => {
    const codec = await createCodec();
    expect(codec.library.startsWith("BACKEND_PACKAGE@")).toBe(true);
  });

  it("writes the same bytes as BACKEND_PACKAGE called directly", async () => {
    const [codec, raw] = [await createCodec(), await createRaw()];
    expect(codec.compress(text)).toEqual(raw.compress(text));
  });
});

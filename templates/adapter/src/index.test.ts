// Tests for this backend's own quirks: what it does with truncated, corrupt and oversized
// input without the guard. The shared behaviour (round trips, hostile input, the version
// it loaded, createRaw, every variant) is in conformance.test.ts.
import { describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { createRaw } from "./raw.js";

const text = new TextEncoder().encode("attestation ".repeat(500));

describe("@snappykit/ADAPTER_ID", () => {
  it("writes the same bytes as BACKEND_PACKAGE called directly", async () => {
    const [codec, raw] = [await createCodec(), await createRaw()];
    expect(codec.compress(text)).toEqual(raw.compress(text));
  });
});

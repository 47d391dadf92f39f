import { createRequire } from "node:module";
import { backendRejection, snappyErrorOf, thrown } from "@snappykit/conformance";
import { isSnappyError } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { createRaw } from "./raw.js";

// What conformance.test.ts does not cover: which line of the binding this is, that it
// writes libsnappy's bytes, and what the raw binding does with bad input.
const text = new TextEncoder().encode("hello hello hello hello hello world");
// libsnappy 1.1.7's bytes for `text`; the Rust `snap` crate writes the same.
const textCompressed = Uint8Array.from([
  0x23, 0x14, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x5e, 0x06, 0x00, 0x10, 0x77, 0x6f, 0x72, 0x6c,
  0x64,
]);

const codec = await createCodec();

describe("@snappykit/napi-v1", () => {
  it("loads the binding's 1.x line", () => {
    expect(codec.library).toMatch(/^@napi-rs\/snappy@1\./);
  });

  it("writes libsnappy's bytes", () => {
    expect(codec.compress(text)).toEqual(textCompressed);
  });

  it("maps the binding's rejections to CORRUPT_INPUT with its message as the cause", () => {
    // Declares 6 bytes, body yields 3; then a copy with offset 2 before any output exists.
    backendRejection(codec, Uint8Array.from([0x06, 0x08, 0x01, 0x02, 0x03]));
    snappyErrorOf(() => codec.uncompress(Uint8Array.from([0x05, 0x01, 0x02])), "CORRUPT_INPUT");
    snappyErrorOf(() => codec.uncompress(new Uint8Array(0)), "CORRUPT_INPUT");
  });

  it("exposes the raw binding, unguarded: its errors are its own", async () => {
    const raw = await createRaw();
    const error = thrown(() => raw.uncompress(Uint8Array.of(0x05, 0x01, 0x02)));
    expect(isSnappyError(error)).toBe(false);
    expect(String(error)).toMatch(/corrupt input/);
  });

  it("offers no async API: the library keeps every input its async calls are given", async () => {
    expect(codec.compressAsync).toBeUndefined();
    expect(codec.uncompressAsync).toBeUndefined();
    // The reason, still true of the installed library: fresh inputs to its uncompress are
    // never released (a fixed version would let the adapter offer async again).
    const binding = createRequire(import.meta.url)("@napi-rs/snappy") as {
      uncompress(input: Buffer): Promise<Buffer>;
    };
    const wire = codec.compress(new Uint8Array(256 * 1024).map((_, i) => (i * 2654435761) >>> 24));
    const gc = (globalThis as { gc?: () => void }).gc!;
    gc();
    const before = process.memoryUsage().arrayBuffers;
    for (let k = 0; k < 40; k++) await binding.uncompress(Buffer.from(wire));
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThan(20 * wire.length);
  });
});

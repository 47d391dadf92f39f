import { backendRejection, snappyErrorOf, thrown } from "@snappykit/conformance";
import { isSnappyError } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { createRaw } from "./raw.js";

// What conformance.test.ts does not cover: the copy out of wasm memory, libsnappy's bytes,
// and what the raw build does with bad input.
const text = new TextEncoder().encode("hello hello hello hello hello world");
// libsnappy 1.1.7's bytes for `text`; the Rust `snap` crate writes the same.
const textCompressed = Uint8Array.from([
  0x23, 0x14, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x5e, 0x06, 0x00, 0x10, 0x77, 0x6f, 0x72, 0x6c,
  0x64,
]);

const codec = await createCodec();

describe("@snappykit/napi-wasi", () => {
  it("returns output in its own memory, not a view of the wasm heap", async () => {
    const data = new Uint8Array(1000).fill(97);
    const compressed = codec.compress(data);
    const outputs = [
      compressed,
      codec.uncompress(compressed),
      await codec.compressAsync!(data),
      await codec.uncompressAsync!(compressed),
    ];
    for (const output of outputs) {
      expect(output.buffer).toBeInstanceOf(ArrayBuffer);
      expect(output.buffer.byteLength).toBe(output.byteLength);
    }
    // What the copy avoids: the library's default output shares the wasm memory.
    const raw = await createRaw();
    expect(raw.uncompress(compressed).buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it("writes libsnappy's bytes", () => {
    expect(codec.compress(text)).toEqual(textCompressed);
  });

  it("maps the build's rejections to CORRUPT_INPUT with its message as the cause", () => {
    // Declares 6 bytes, body yields 3; then a copy with offset 2 before any output exists.
    backendRejection(codec, Uint8Array.from([0x06, 0x08, 0x01, 0x02, 0x03]));
    for (const input of [Uint8Array.from([0x05, 0x01, 0x02]), new Uint8Array(0)]) {
      snappyErrorOf(() => codec.uncompress(input), "CORRUPT_INPUT");
    }
  });

  it("exposes the raw build, unguarded: it throws its own errors", async () => {
    const raw = await createRaw();
    const error = thrown(() => raw.uncompress(Uint8Array.of(0x05, 0x01, 0x02)));
    expect([isSnappyError(error), String(error)]).toEqual([
      false,
      expect.stringMatching(/corrupt input/),
    ]);
  });
});

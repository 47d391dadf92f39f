import { createRequire } from "node:module";
import { backendRejection, snappyErrorOf } from "@snappykit/conformance";
import type { SnappyCodec } from "@snappykit/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { createRaw } from "./raw.js";

// "hello hello hello hello" as Google's libsnappy writes it: a literal, then a copy.
const HELLO = Uint8Array.of(23, 20, 104, 101, 108, 108, 111, 32, 66, 6, 0);
const HELLO_TEXT = new TextEncoder().encode("hello hello hello hello");

// The same CommonJS module instance the adapter loads, to watch its wasm memory.
const wasmMemory = (
  createRequire(import.meta.url)("snappy-wasm") as { __wasm: { memory: { buffer: ArrayBuffer } } }
).__wasm.memory;

let codec: SnappyCodec;
beforeAll(async () => {
  codec = await createCodec();
});

describe("@snappykit/snappy-wasm", () => {
  it("writes the raw block format, not snappy-wasm's framed default", () => {
    const out = codec.compress(HELLO_TEXT);
    // A framed stream starts with the stream identifier chunk 0xff 06 00 00 "sNaPpY".
    expect(out[0]).toBe(HELLO_TEXT.length);
    expect(codec.uncompress(out)).toEqual(HELLO_TEXT);
    expect(codec.uncompress(HELLO)).toEqual(HELLO_TEXT);
  });

  it("rejects a hostile preamble without growing wasm memory", () => {
    const twoGiB = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x07, 0, 0, 0, 0);
    const sixtyFourMiB = Uint8Array.of(0x80, 0x80, 0x80, 0x20, 0, 0, 0, 0);
    const before = wasmMemory.buffer.byteLength;
    expect(snappyErrorOf(() => codec.uncompress(twoGiB)).code).toBe("LENGTH_LIMIT");
    // Under the default maxLength, but a 4-byte body cannot expand to 64 MiB.
    expect(snappyErrorOf(() => codec.uncompress(sixtyFourMiB)).code).toBe("CORRUPT_INPUT");
    expect(wasmMemory.buffer.byteLength).toBe(before);
  });

  it("wraps snap's own rejections as CORRUPT_INPUT with the library and its reason", () => {
    const cases = [
      Uint8Array.of(10, 8, 65, 66, 67), // declares more than it holds
      Uint8Array.of(2, 8, 65, 66, 67), // declares less than it holds
      Uint8Array.of(8, 0x0c, 97, 98, 99, 100, 0x01, 0), // copy with offset 0
    ];
    for (const stream of cases) {
      const error = backendRejection(codec, stream);
      // The message is core's classification; snap's own words stay in the cause.
      expect(error.reason).not.toBe("backend-rejected");
      expect((error.cause as Error).message).toMatch(/^snappy: /);
    }
    snappyErrorOf(() => codec.uncompress(new Uint8Array(0)), "CORRUPT_INPUT");
  });

  it("returns arrays outside wasm memory", () => {
    const a = codec.compress(new Uint8Array(3000).fill(1));
    expect(a.buffer).not.toBe(wasmMemory.buffer);
    expect(codec.uncompress(a).buffer).not.toBe(wasmMemory.buffer);
  });

  it("createRaw calls snappy-wasm directly: its errors are its own", async () => {
    const raw = await createRaw();
    expect(() => raw.uncompress(Uint8Array.of(10, 8, 65, 66, 67))).toThrow(/snappy: /);
  });
});

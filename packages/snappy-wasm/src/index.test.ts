import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { snappyErrorOf } from "@snappykit/conformance";
import type { SnappyCodec } from "@snappykit/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createCodec, createRaw } from "./index.js";

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
  it("names the snappy-wasm version that is installed", () => {
    const installed = JSON.parse(
      readFileSync(new URL("../node_modules/snappy-wasm/package.json", import.meta.url), "utf8"),
    ) as { version: string };
    expect(codec.library).toBe(`snappy-wasm@${installed.version}`);
    expect(codec.name).toBe("snappy-wasm");
    expect(codec.runtime).toBe("wasm");
  });

  it("writes the raw block format, not snappy-wasm's framed default", () => {
    const out = codec.compress(HELLO_TEXT);
    // A framed stream starts with the stream identifier chunk 0xff 06 00 00 "sNaPpY".
    expect(out[0]).toBe(HELLO_TEXT.length);
    expect(codec.uncompress(out)).toEqual(HELLO_TEXT);
    expect(codec.uncompress(HELLO)).toEqual(HELLO_TEXT);
  });

  it("reads a Buffer and an offset view", () => {
    expect(Buffer.from(codec.uncompress(Buffer.from(HELLO)))).toEqual(Buffer.from(HELLO_TEXT));
    const padded = new Uint8Array(HELLO.length + 5);
    padded.set(HELLO, 5);
    expect(codec.uncompress(padded.subarray(5))).toEqual(HELLO_TEXT);
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
      const error = snappyErrorOf(() => codec.uncompress(stream));
      expect(error.code).toBe("CORRUPT_INPUT");
      expect(error.message).toMatch(/^snappy-wasm@\d+\.\d+\.\d+ rejected the stream: snappy:/);
      expect(error.cause).toBeInstanceOf(Error);
    }
    expect(snappyErrorOf(() => codec.uncompress(new Uint8Array(0))).code).toBe("CORRUPT_INPUT");
  });

  it("returns arrays that later calls do not overwrite", () => {
    const a = codec.compress(new Uint8Array(3000).fill(1));
    const aCopy = a.slice();
    const ua = codec.uncompress(a);
    codec.uncompress(codec.compress(new Uint8Array(3000).fill(2)));
    expect(a).toEqual(aCopy);
    expect(ua.every((b) => b === 1)).toBe(true);
    expect(ua.buffer).not.toBe(wasmMemory.buffer);
    expect(a.buffer).not.toBe(wasmMemory.buffer);
  });

  it("wraps bad arguments as INVALID_ARGUMENT", () => {
    expect(snappyErrorOf(() => codec.compress("abc" as never)).code).toBe("INVALID_ARGUMENT");
    expect(snappyErrorOf(() => codec.uncompress([1, 2] as never)).code).toBe("INVALID_ARGUMENT");
  });

  it("createRaw calls snappy-wasm directly", async () => {
    const raw = await createRaw();
    expect(raw.library).toBe(codec.library);
    expect(raw.uncompress(raw.compress(HELLO_TEXT))).toEqual(HELLO_TEXT);
    expect(() => raw.uncompress(Uint8Array.of(10, 8, 65, 66, 67))).toThrow(/snappy: /);
  });
});

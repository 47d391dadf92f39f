import { copy4, literal } from "@snappykit/conformance";
import { encodeUncompressedLength } from "@snappykit/core";
import { describe, expect, it, vi } from "vitest";
// @ts-expect-error: a script, without type declarations
import { kernelModule } from "../scripts/kernel.mjs";
import { kernel } from "./kernel.js";
import { KERNEL_WASM } from "./kernel-binary.js";
import {
  firstDifference,
  oracleCompress,
  oracleUncompress,
  randomBytes,
  structured,
} from "./test-support/inputs.js";

/**
 * A codec loaded anew (its module constants and tables made again) compresses as snappy@7
 * does and decodes it back: text, and 700 KB of structured data through both windows.
 */
function roundTrips(ts: typeof import("./index.js")): void {
  for (const data of [new TextEncoder().encode("snappy ".repeat(1000)), structured(700_000, 3)]) {
    const wire = ts.compress(data);
    expect(firstDifference(wire, oracleCompress(data))).toBe(-1);
    expect(firstDifference(ts.uncompress(wire), data)).toBe(-1);
  }
  // Copy-4, which libsnappy never writes, through the tag table made anew.
  const stream = Uint8Array.from([
    ...encodeUncompressedLength(100 + 64 * 20),
    ...literal(randomBytes(100, 5)),
    ...Array.from({ length: 20 }, (_, k) => copy4(64, 90 - k)).flat(),
  ]);
  expect(firstDifference(ts.uncompress(stream), oracleUncompress(stream))).toBe(-1);
}

describe("the WebAssembly kernel", () => {
  it("stages the compressor's output half a page off its block (kernel.wat: 4K aliasing)", () => {
    // An incompressible literal lands a few bytes past its block offset; 1-63 bytes past it
    // modulo 4 KiB, its copy ran ~15 times slower.
    expect((kernel!.stagedAt - kernel!.blockAt) % 4096).toBe(2048);
  });

  it("is what scripts/kernel.mjs builds from kernel.wat", async () => {
    const { readFileSync } = await import("node:fs");
    const committed = readFileSync(new URL("./kernel-binary.ts", import.meta.url), "utf8");
    expect(committed).toBe(await kernelModule());
  });

  it("stays under the 4 KiB that Chromium before 114 compiled synchronously on the main thread", () => {
    expect(atob(KERNEL_WASM).length).toBeLessThan(4096);
  });

  it("loads under Node", () => {
    expect(kernel).not.toBeNull();
  });

  it("clears the whole hash table it uses: an entry left from before is never a match", async () => {
    // A 64 KiB block of one 4-byte word repeated, the word one whose hash is the last of the
    // table's 16,384 slots: at position 4 snappy@7 matches position 0 (the slot is empty).
    // An uncleared byte of that slot would name a position far on, with the same bytes: a
    // "match" ahead of the position, which no decoder can follow.
    let word = 0x01020304;
    while (Math.imul(word, 0x1e35a7bd) >>> 18 !== 16383) word++;
    const data = new Uint8Array(new Uint32Array(65536 / 4).fill(word).buffer);
    const ts = await import("./index.js");
    // Whatever the table's memory holds (it lies right below the block, kernel.wat's layout):
    // here every bit set.
    const table = new Uint8Array(kernel!.memory, kernel!.blockAt - 2 * 16384, 2 * 16384);
    table.fill(0xff);
    const wire = ts.compress(data);
    expect(firstDifference(wire, oracleCompress(data))).toBe(-1);
    expect(firstDifference(oracleUncompress(wire), data)).toBe(-1);
  });

  it("loads again when imported again, and the codec names itself, its library and wasm", async () => {
    vi.resetModules();
    try {
      expect((await import("./kernel.js")).kernel).not.toBeNull();
      const ts = await import("./index.js");
      const { version } = (await import("../package.json", { with: { type: "json" } })).default;
      expect(ts.library).toBe(`@snappykit/ts@${version}`);
      const codec = await ts.createCodec();
      expect([codec.name, codec.library, codec.runtime]).toEqual(["ts", ts.library, "wasm"]);
      roundTrips(ts);
    } finally {
      vi.resetModules();
    }
  });

  for (const missing of ["WebAssembly", "atob"]) {
    it(`is null where ${missing} is missing, and the codec still works`, async () => {
      vi.resetModules();
      vi.stubGlobal(missing, undefined);
      try {
        expect((await import("./kernel.js")).kernel).toBeNull();
        const ts = await import("./index.js");
        expect((await ts.createCodec()).runtime).toBe("js");
        roundTrips(ts);
      } finally {
        vi.unstubAllGlobals();
        vi.resetModules();
      }
    });
  }

  it("is null where compiling it throws (a Content-Security-Policy without 'wasm-unsafe-eval'), and the codec still works", async () => {
    // As a browser refuses it: WebAssembly is there, compiling bytes throws.
    class Refused {
      constructor() {
        throw new Error(
          "WebAssembly.Module(): Refused to compile or instantiate WebAssembly module",
        );
      }
    }
    vi.resetModules();
    vi.stubGlobal("WebAssembly", { Module: Refused, Instance: Refused });
    try {
      expect((await import("./kernel.js")).kernel).toBeNull();
      const ts = await import("./index.js");
      expect((await ts.createCodec()).runtime).toBe("js");
      const data = new TextEncoder().encode("snappy ".repeat(1000));
      expect(ts.uncompress(ts.compress(data))).toEqual(data);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});

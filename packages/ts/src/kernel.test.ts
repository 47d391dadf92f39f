import { describe, expect, it, vi } from "vitest";
// @ts-expect-error: a script, without type declarations
import { kernelModule } from "../scripts/kernel.mjs";
import { kernel } from "./kernel.js";
import { KERNEL_WASM } from "./kernel-binary.js";

describe("the WebAssembly kernel", () => {
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

import { describe, expect, it } from "vitest";
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
});

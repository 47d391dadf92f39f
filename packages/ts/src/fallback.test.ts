// Every test of the codec again where WebAssembly is not available (a Content-Security-Policy
// without 'wasm-unsafe-eval', a runtime that forbids compiling code from bytes): kernel.ts
// finds none, and plain.ts decodes and compresses. Vitest gives each test file
// modules of its own, so the imports below load the codec anew without the kernel.
import { expect, it, vi } from "vitest";

vi.stubGlobal("WebAssembly", undefined);
const { kernel } = await import("./kernel.js");
await import("./compress.test.js");
await import("./decompress.test.js");
await import("./fixtures.test.js");
await import("./into.test.js");
await import("./owned.test.js");
await import("./conformance.test.js");
vi.unstubAllGlobals();

it("runs without the WebAssembly kernel", () => {
  expect(kernel).toBeNull();
});

// The WebAssembly kernel (kernel.wat): the decoder's fast path and the block compressor,
// working in one memory whose regions the decoder's windows (windows.ts) and the
// compressor's buffers (compress.ts) view. Where WebAssembly cannot be compiled (no
// WebAssembly, or none with SIMD, a Content-Security-Policy without 'wasm-unsafe-eval', a
// runtime that forbids compiling code from bytes) `kernel` is null and a plain decoder and
// compressor in TypeScript (plain.ts) run instead.

import { KERNEL_WASM } from "./kernel-binary.js";

/** The exports kernel.wat defines, and its memory. */
export interface Kernel {
  /** The module's memory (768 KiB; it never grows, so views of it stay valid). */
  readonly memory: ArrayBuffer;
  /** Where the regions start in `memory` (kernel.wat's layout). */
  readonly inAt: number;
  readonly outAt: number;
  readonly blockAt: number;
  readonly stagedAt: number;
  /** The decoder's fast path (checked.ts drives it); the output position it stopped at is `state[0]`. */
  readonly fastPath: (pos: number, op: number, fastEnd: number, fastOutEnd: number) => number;
  /** A block up to its last literal, which starts at `state[1]` (compress.ts). */
  readonly compressBlock: (length: number, op: number) => number;
  /** The kernel's second results. */
  readonly state: Int32Array;
}

// The part of the WebAssembly JS API used here (the lib this package compiles against, ES2023
// without the DOM, does not declare it). Where a runtime lacks it, or atob, load() throws in
// its try and returns null.
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
};

function load(): Kernel | null {
  let exports: Record<string, unknown>;
  try {
    const bytes = Uint8Array.from(atob(KERNEL_WASM), (c) => c.charCodeAt(0));
    exports = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
  } catch {
    return null;
  }
  const memory = (exports.memory as { buffer: ArrayBuffer }).buffer;
  const at = (name: string) => (exports[name] as { value: number }).value;
  return {
    memory,
    inAt: at("inAt"),
    outAt: at("outAt"),
    blockAt: at("blockAt"),
    stagedAt: at("stagedAt"),
    fastPath: exports.fastPath as Kernel["fastPath"],
    compressBlock: exports.compressBlock as Kernel["compressBlock"],
    state: new Int32Array(memory, 0, 2),
  };
}

/** The kernel, or null where WebAssembly is not available (plain.ts runs). */
export const kernel: Kernel | null = load();

// Loads the @node-rs/crc32 native addon where a runtime can (Node, Bun, Deno), behind the
// package's "#native-crc32c" import. Browsers get native.browser.ts instead, so their bundles
// carry neither this top-level await nor the doomed import of a native addon.
import type { Crc32cFunction } from "./crc32c.js";

// "123456789" → 0xe3069283 is the CRC-32C check value (RFC 3720 §B.4 family of vectors); a
// native function that disagrees is not used.
const CHECK_INPUT = Uint8Array.of(0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39);
const CHECK_VALUE = 0xe3069283;

async function loadNative(): Promise<{ fn: Crc32cFunction; library: string } | undefined> {
  try {
    // A variable specifier keeps bundlers from failing on the optional native dependency.
    const specifier = "@node-rs/crc32";
    const mod = (await import(specifier)) as {
      crc32c?: Crc32cFunction;
      default?: { crc32c?: Crc32cFunction };
    };
    const fn = mod.crc32c ?? mod.default?.crc32c;
    if (typeof fn !== "function" || fn(CHECK_INPUT) >>> 0 !== CHECK_VALUE) return undefined;
    return { fn, library: "@node-rs/crc32" };
  } catch {
    return undefined;
  }
}

/** The addon's CRC-32C where it loaded and passed the check value. */
export const native = await loadNative();

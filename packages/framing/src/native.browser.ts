// The "browser" target of the package's "#native-crc32c" import: no native addon in a
// browser, so framing uses the TypeScript CRC-32C, decided without a top-level await.
import type { Crc32cFunction } from "./crc32c.js";

/** Never loaded in a browser. */
export const native: { fn: Crc32cFunction; library: string } | undefined = undefined;

// CRC-32C (Castagnoli), the checksum of the Snappy framing format (framing_format.txt §3).
// Two implementations behind one signature: @node-rs/crc32's SIMD/SSE4.2 native addon when it
// loads, and a pure-TypeScript slicing-by-8 table path for runtimes without native addons
// (browsers, Deno/Bun without N-API, a platform with no prebuilt binary, Node before 20.16).

/** A CRC-32C function: unsigned 32-bit checksum of `data`. */
export type Crc32cFunction = (data: Uint8Array) => number;

// Reflected Castagnoli polynomial (RFC 3720 §12.1).
const POLY = 0x82f63b78;

// Eight 256-entry tables: TABLE[k*256 + b] is the CRC of byte b followed by k zero bytes, so one
// loop step folds 8 input bytes with 8 lookups instead of 8 dependent table steps.
const TABLE = /* @__PURE__ */ (() => {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff]! ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();

/**
 * CRC-32C of `data` in pure TypeScript (slicing-by-8). Works everywhere; about 1–2 GB/s on a
 * modern x86-64 core, several times slower than the native path on large inputs.
 */
export function crc32cTs(data: Uint8Array): number {
  const t = TABLE;
  let crc = -1;
  let i = 0;
  const n = data.length;
  const end8 = n - (n & 7);
  while (i < end8) {
    const lo = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) ^ crc;
    crc =
      t[1792 + (lo & 0xff)]! ^
      t[1536 + ((lo >>> 8) & 0xff)]! ^
      t[1280 + ((lo >>> 16) & 0xff)]! ^
      t[1024 + (lo >>> 24)]! ^
      t[768 + data[i + 4]!]! ^
      t[512 + data[i + 5]!]! ^
      t[256 + data[i + 6]!]! ^
      t[data[i + 7]!]!;
    i += 8;
  }
  while (i < n) crc = t[(crc ^ data[i++]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

/**
 * The framing format's masked checksum (framing_format.txt §3): rotate right by 15 bits, then
 * add 0xa282ead8 modulo 2^32, so that checksumming data that embeds its own CRC stays robust.
 */
export function maskChecksum(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}

/** Inverse of {@link maskChecksum}. */
export function unmaskChecksum(masked: number): number {
  const rot = (masked - 0xa282ead8) >>> 0;
  return ((rot >>> 17) | (rot << 15)) >>> 0;
}

// "123456789" → 0xe3069283 is the CRC-32C check value (RFC 3720 §B.4 family of vectors); a
// native function that disagrees is not used.
const CHECK_INPUT = Uint8Array.of(0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39);
const CHECK_VALUE = 0xe3069283;

/**
 * The addon where the runtime can load it: synchronously through `require` from
 * `process.getBuiltinModule` (Node 20.16+, Bun, Deno), so this module needs no top-level
 * await and no `node:` import, and bundles for browsers, where `process` does not exist.
 */
function loadNative(): Crc32cFunction | undefined {
  try {
    const nodeModule = globalThis.process?.getBuiltinModule?.("module") as
      | typeof import("node:module")
      | undefined;
    if (!nodeModule) return undefined;
    const mod = nodeModule.createRequire(import.meta.url)("@node-rs/crc32") as {
      crc32c?: Crc32cFunction;
    };
    const fn = mod.crc32c;
    if (typeof fn !== "function" || fn(CHECK_INPUT) >>> 0 !== CHECK_VALUE) return undefined;
    return fn;
  } catch {
    return undefined;
  }
}

const native = loadNative();

/**
 * CRC-32C from the `@node-rs/crc32` native addon, or `undefined` where it did not load
 * (not installed, no prebuilt binary for this platform, or not a Node-API runtime).
 */
export const crc32cNative: Crc32cFunction | undefined = native;

/** The CRC-32C implementation the framing functions use by default: native when loaded. */
export const crc32c: Crc32cFunction = native ?? crc32cTs;

/** Which implementation {@link crc32c} is: `"@node-rs/crc32"` or `"typescript"`. */
export const crc32cImplementation: "@node-rs/crc32" | "typescript" = native
  ? "@node-rs/crc32"
  : "typescript";

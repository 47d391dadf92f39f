// Generators shared by the tests and the 100,000-input property script: inputs that drive
// every compressor path (no match, short and long matches, near and far offsets, 64 KiB
// block boundaries). Test-only: excluded from the build.
import { createRequire } from "node:module";
import { prng } from "@snappykit/conformance";
import fc from "fast-check";

const require = createRequire(import.meta.url);
const snappy = require("snappy") as {
  compressSync(input: Buffer, options: { copyOutputData: true }): Buffer;
  uncompressSync(input: Buffer, options: { asBuffer: true; copyOutputData: true }): Buffer;
};

// copyOutputData: a V8-owned copy, collected normally. snappy@7's default external buffers are
// freed by finalizers on the event loop, which a long synchronous fast-check run never
// reaches (memory grew past 2 GB; see docs/backends.md).

/** snappy@7 (Rust `snap`, libsnappy 1.1.7 heuristics): the byte-exactness oracle. */
export function oracleCompress(input: Uint8Array): Uint8Array {
  return new Uint8Array(
    snappy.compressSync(Buffer.from(input.buffer, input.byteOffset, input.length), {
      copyOutputData: true,
    }),
  );
}

/** snappy@7's decoder; throws on what it rejects. Only call on streams our bound admits. */
export function oracleUncompress(input: Uint8Array): Uint8Array {
  return new Uint8Array(
    snappy.uncompressSync(Buffer.from(input.buffer, input.byteOffset, input.length), {
      asBuffer: true,
      copyOutputData: true,
    }),
  );
}

/** Index of the first difference, or -1 when equal. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

export function randomBytes(n: number, seed: number, mask = 0xff): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = ((next() * 256) | 0) & mask;
  return out;
}

/** A random `period`-byte unit repeated, with `mutations` random bytes overwritten. */
export function repetitive(n: number, seed: number, period: number, mutations: number) {
  const next = prng(seed);
  const unit = randomBytes(period, seed + 1);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = unit[i % period]!;
  for (let k = 0; k < mutations && n > 0; k++) out[(next() * n) | 0] = (next() * 256) | 0;
  return out;
}

const WORDS = ["slot", "index", "root", "validator", "beacon", "0x", "true", "null", "sig"];

/** JSON-like text: repeated keys, varying numbers and hex, like logs and API payloads. */
export function structured(n: number, seed: number): Uint8Array {
  const next = prng(seed);
  let text = "";
  while (text.length < n) {
    const word = WORDS[(next() * WORDS.length) | 0]!;
    const value = (next() * 10 ** ((next() * 9) | 0)) | 0;
    text += `{"${word}":${value},"h":"${value.toString(16)}"},`;
  }
  return new TextEncoder().encode(text.slice(0, n));
}

/** SSZ-like: 32-byte random roots between zero runs and small little-endian integers. */
export function sszLike(n: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(n);
  let i = 0;
  while (i < n) {
    const kind = (next() * 3) | 0;
    const len = kind === 0 ? 32 : kind === 1 ? 8 : ((next() * 200) | 0) + 1;
    if (kind === 0) for (let k = 0; k < len && i + k < n; k++) out[i + k] = (next() * 256) | 0;
    else if (kind === 1) out[i] = (next() * 256) | 0;
    i += len;
  }
  return out;
}

const B = 65536;
/** Sizes: mostly gossip-sized, some mid, and many straddling one to three block boundaries. */
export const sizeArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 600 }) },
  { weight: 2, arbitrary: fc.integer({ min: 600, max: 20000 }) },
  { weight: 2, arbitrary: fc.integer({ min: B - 80, max: B + 80 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2 * B - 40, max: 2 * B + 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 20000, max: 3 * B + 17 }) },
);

/** One input: a named generator with its parameters, so failures print reproducibly. */
export const inputArb: fc.Arbitrary<{ kind: string; bytes: Uint8Array }> = fc.oneof(
  fc.uint8Array({ maxLength: 700 }).map((bytes) => ({ kind: "fc bytes", bytes })),
  fc
    .tuple(sizeArb, fc.integer(), fc.constantFrom(0xff, 0x0f, 0x03, 0x01))
    .map(([n, s, m]) => ({ kind: `random(${n}, ${s}, mask ${m})`, bytes: randomBytes(n, s, m) })),
  fc
    .tuple(sizeArb, fc.integer(), fc.integer({ min: 1, max: 3000 }), fc.nat(40))
    .map(([n, s, p, k]) => ({
      kind: `repetitive(${n}, ${s}, ${p}, ${k})`,
      bytes: repetitive(n, s, p, k),
    })),
  fc
    .tuple(sizeArb, fc.integer())
    .map(([n, s]) => ({ kind: `structured(${n}, ${s})`, bytes: structured(n, s) })),
  fc
    .tuple(sizeArb, fc.integer())
    .map(([n, s]) => ({ kind: `sszLike(${n}, ${s})`, bytes: sszLike(n, s) })),
  // Concatenations: compressible and incompressible stretches in one block.
  fc
    .array(
      fc
        .tuple(fc.integer({ min: 0, max: 5000 }), fc.integer(), fc.nat(3))
        .map(([n, s, k]) =>
          k === 0
            ? randomBytes(n, s)
            : k === 1
              ? structured(n, s)
              : k === 2
                ? sszLike(n, s)
                : repetitive(n, s, 1 + (s & 63), 3),
        ),
      { maxLength: 30 },
    )
    .map((parts) => {
      const bytes = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
      }
      return { kind: `concat of ${parts.length}`, bytes };
    }),
);

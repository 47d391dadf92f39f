// Small deterministic payloads built in code: for the bench's own tests, which must not
// depend on the committed fixture files.
import type { BenchPayload } from "../model/case.js";
import { makePayload } from "./payloads.js";

/** A seeded xorshift32 byte source, so every run builds the same bytes. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s & 0xff;
  };
}

/** Records with 32-byte random roots, small little-endian integers and zero padding. */
function structured(size: number, seed: number): Uint8Array {
  const next = rng(seed);
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += 64) {
    for (let i = 0; i < 32 && at + i < size; i++) out[at + i] = next();
    if (at + 40 < size) out[at + 32] = next() & 0x0f;
    if (at + 48 < size) out[at + 40] = (at / 64) & 0xff;
  }
  return out;
}

function random(size: number, seed: number): Uint8Array {
  const next = rng(seed);
  return Uint8Array.from({ length: size }, next);
}

/** Four payloads: tiny, block-sized, incompressible, and many chunks. */
export function syntheticPayloads(): BenchPayload[] {
  return [
    makePayload("synthetic-small", "228 B record, attestation-sized", "synthetic", [
      structured(228, 1),
    ]),
    makePayload("synthetic-block", "96 KiB of structured records, block-sized", "synthetic", [
      structured(96 * 1024, 2),
    ]),
    makePayload("synthetic-random", "64 KiB of random bytes (incompressible)", "synthetic", [
      random(64 * 1024, 3),
    ]),
    makePayload(
      "synthetic-chunks",
      "8 × 8 KiB structured chunks",
      "synthetic",
      Array.from({ length: 8 }, (_, i) => structured(8 * 1024, 10 + i)),
    ),
  ];
}

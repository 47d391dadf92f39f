// Byte streams with the structure of real consensus traffic, for the sweep's sizes and the
// soak's big blob: fixture items (serialized SSZ) laid end to end, repeated when more bytes
// are needed. Snappy compresses in independent 64 KiB fragments, so repeating a stream of
// multi-KiB parts does not make it more compressible than its parts are.
import type { PayloadSource } from "./payloads.js";

/** The first `n` bytes of `parts` laid end to end, starting over when they run out. */
export function repeatTo(parts: readonly Uint8Array[], n: number): Uint8Array {
  const total = parts.reduce((s, p) => s + p.length, 0);
  if (total === 0) throw new Error("repeatTo: no bytes to repeat");
  const out = new Uint8Array(n);
  let at = 0;
  while (at < n) {
    for (const p of parts) {
      if (at >= n) break;
      const take = Math.min(p.length, n - at);
      out.set(p.subarray(0, take), at);
      at += take;
    }
  }
  return out;
}

/** Fixture payloads whose items make up each stream. */
export const STREAM_SOURCES = {
  /** 32 serialized fulu SignedBeaconBlocks (~3.1 MiB, compress ~1.8×). */
  blocks: ["blocks-by-range"],
  /** A blob sidecar, a data column sidecar and a column sidecar response (~1.0×). */
  sidecars: ["blob-sidecar", "data-column-sidecar", "columns-32k-chunks"],
} as const;

/** The items of the named fixture payloads, in order. */
export function streamParts(
  source: PayloadSource,
  names: readonly string[],
): readonly Uint8Array[] {
  return names.flatMap((name) => {
    const p = source.all.find((x) => x.name === name);
    if (!p) throw new Error(`fixture payload "${name}" is missing`);
    return p.items;
  });
}

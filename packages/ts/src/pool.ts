// Output pool for small results, the way Node's `Buffer.allocUnsafe` pools: a fresh
// `Uint8Array` costs an off-heap allocation (~0.3–0.9 µs here, more than compressing a
// 240-byte message), while a view into a shared slab costs one small object. Regions are
// handed out once and never written again; only the free tail of the current slab is written,
// so no result ever aliases memory that is reused later.

/** Bytes per slab. */
const SLAB_SIZE = 16 * 1024;

/**
 * Results up to this size (for compress: the worst-case size it reserves) come from the pool;
 * larger ones get their own buffer. Small enough that one slab serves many results, so a
 * retained result pins at most a 16 KiB slab.
 */
export const POOLED_MAX = 2048;

/** The current slab, a `DataView` over it (made once per slab), and its first free byte. */
export const pool = {
  bytes: new Uint8Array(SLAB_SIZE),
  view: new DataView(new ArrayBuffer(0)),
  offset: 0,
};
pool.view = new DataView(pool.bytes.buffer);

/**
 * Make sure the current slab has `size` free bytes (starting a new slab if not, or if the
 * caller transferred and so detached the old one); returns where they start.
 */
export function reserve(size: number): number {
  if (pool.offset + size > SLAB_SIZE || pool.bytes.byteLength === 0) {
    pool.bytes = new Uint8Array(SLAB_SIZE);
    pool.view = new DataView(pool.bytes.buffer);
    pool.offset = 0;
  }
  return pool.offset;
}

/** Hand out `pool.bytes[start..end)`; the next result starts at the next 8-byte boundary. */
export function take(start: number, end: number): Uint8Array {
  pool.offset = (end + 7) & ~7;
  // The constructor, not `subarray`: same view, about half the cost (no species lookup).
  return new Uint8Array(pool.bytes.buffer, start, end - start);
}

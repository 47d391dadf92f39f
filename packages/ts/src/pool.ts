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

/** The current slab, its buffer, a `DataView` over it (made once per slab), its first free byte. */
export const pool = {
  bytes: new Uint8Array(0),
  buffer: new ArrayBuffer(0),
  view: new DataView(new ArrayBuffer(0)),
  offset: SLAB_SIZE,
};

/**
 * Make sure the current slab has `size` free bytes (starting a new slab if not, or if the
 * caller transferred and so detached the old one); returns where they start.
 */
export function reserve(size: number): number {
  // A transferred buffer reads as 0 bytes long. (The ArrayBuffer's byteLength: the typed
  // array's getter costs ~10 ns more per call.)
  if (pool.offset + size > SLAB_SIZE || pool.buffer.byteLength === 0) {
    pool.buffer = new ArrayBuffer(SLAB_SIZE);
    pool.bytes = new Uint8Array(pool.buffer);
    pool.view = new DataView(pool.buffer);
    pool.offset = 0;
  }
  return pool.offset;
}

/** Hand out `pool.bytes[start..end)`; the next result starts at the next 8-byte boundary. */
export function take(start: number, end: number): Uint8Array {
  pool.offset = (end + 7) & ~7;
  // The constructor, not `subarray`: same view, about half the cost (no species lookup).
  return new Uint8Array(pool.buffer, start, end - start);
}

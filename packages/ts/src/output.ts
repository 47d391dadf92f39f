// Caller-provided output arrays (`compressInto`, `uncompressInto`): the codec writes through a
// `DataView`, and making one per call made uncompressInto of the 144-byte fixture message
// about 1.5× slower (one reused output array against two alternating ones). Callers of
// the `*Into` functions reuse one output array, so the view of the last one is kept (and with
// it a reference to that array until another comes).
let lastBytes: Uint8Array | undefined;
let lastLength = 0;
let lastView: DataView = new DataView(new ArrayBuffer(0));

/** A `DataView` of exactly `bytes` (`view.getInt32(0)` reads `bytes[0..4)`). */
export function viewOf(bytes: Uint8Array): DataView {
  // Same array, same length as when the view was made: the view still covers it. The length
  // is the array's, not the view's: on a resizable buffer that shrank, reading the view's
  // `byteLength` throws, while the array (length-tracking, or a fixed view now out of
  // bounds) reports its new length.
  const length = bytes.byteLength;
  if (bytes !== lastBytes || length !== lastLength) {
    lastView = new DataView(bytes.buffer, bytes.byteOffset, length);
    lastBytes = bytes;
    lastLength = length;
  }
  return lastView;
}

/** A `distance` for {@link moveExact}: source and destination do not overlap. */
export const SEPARATE = 0x7fffffff;

/**
 * Move exactly `length` bytes from `fromBytes[from..]` (also read through `fromView`) to
 * `out[op..]`, which starts `distance` bytes after the source in the same array (a copy, §2.2
 * overlap) or is elsewhere ({@link SEPARATE}); returns the new output position. Moves 4 bytes
 * at a time where the distance allows (never float64 moves: engines may quiet a signalling
 * NaN's bits), and the last move ends exactly at the end: it may overlap the one before,
 * rewriting those bytes from the same source bytes (the source ends `distance` ≥ 4 before
 * it, so no move has changed them). Single bytes only below 4 bytes or at a distance below
 * 4. Every byte a move reads was written before; nothing is read or written past the
 * `length` bytes (the compressor's literals, the decoder's checked path). No tail loop:
 * compressInto of gossip messages −13–18 %, of beacon-block −8 % (docs/findings/2026-12-ts-wasm-kernel.md).
 */
export function moveExact(
  fromView: DataView,
  fromBytes: Uint8Array,
  from: number,
  out: Uint8Array,
  outView: DataView,
  op: number,
  length: number,
  distance: number,
): number {
  const stop = (op + length) | 0;
  if (length >= 4 && distance >= 4) {
    const last = (stop - 4) | 0;
    const lastFrom = (from + length - 4) | 0;
    while (op < last) {
      outView.setInt32(op, fromView.getInt32(from, true), true);
      op = (op + 4) | 0;
      from = (from + 4) | 0;
    }
    outView.setInt32(last, fromView.getInt32(lastFrom, true), true);
    return stop;
  }
  while (op < stop) out[op++] = fromBytes[from++]!;
  return stop;
}

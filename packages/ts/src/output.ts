// Moves between the codec's module buffers and out of them (checked.ts, compress.ts).

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

/** Prefixes up to this long are kept by {@link prefixes}. */
export const SMALL_COPY = 1024;

/**
 * `prefix(n)`: `bytes.subarray(0, n)`, made once per length up to {@link SMALL_COPY} and then
 * reused, for copying a short result out of a module buffer with one `set`: making the
 * subarray each time cost about as much as the copy of a gossip message (checked.ts,
 * compress.ts).
 */
export function prefixes(bytes: Uint8Array): (n: number) => Uint8Array {
  // Sized up front: an array written at scattered indexes could turn into a slow dictionary.
  const made: (Uint8Array | undefined)[] = new Array(SMALL_COPY + 1).fill(undefined);
  return (n) => {
    let prefix = made[n];
    if (prefix === undefined) prefix = made[n] = bytes.subarray(0, n);
    return prefix;
  };
}

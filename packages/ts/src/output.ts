// Caller-provided output arrays (`compressInto`, `uncompressInto`): the codec writes through a
// `DataView`, and making one per call cost ~70 ns (uncompressInto of the 144-byte fixture
// message: 140 ns with one reused output array, 212 ns alternating between two). Callers of
// the `*Into` functions reuse one output array, so the view of the last one is kept (and with
// it a reference to that array until another comes).
let lastBytes: Uint8Array | undefined;
let lastView: DataView = new DataView(new ArrayBuffer(0));

/** A `DataView` of exactly `bytes` (`view.getInt32(0)` reads `bytes[0..4)`). */
export function viewOf(bytes: Uint8Array): DataView {
  // Same array, same extent: a view made for it still fits (its buffer was not resized).
  if (bytes !== lastBytes || lastView.byteLength !== bytes.byteLength) {
    lastView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    lastBytes = bytes;
  }
  return lastView;
}

/**
 * Whether a float64 read from a `DataView` and written back keeps its 8 bytes exactly, NaN
 * payloads included. ECMAScript lets an engine write any NaN encoding (JavaScriptCore and
 * SpiderMonkey canonicalise NaNs); V8 moves the bits unchanged. Where this holds, longer
 * literals and copies move 8 bytes per load and store; elsewhere 4 (an integer move is exact
 * everywhere).
 */
function float64MovesExact(): boolean {
  const view = new DataView(new ArrayBuffer(16));
  // Signalling NaNs (quiet bit clear) with small and large payloads, and a negative quiet NaN.
  const patterns = [
    [0x7ff00000, 0x00000001],
    [0x7ff7ffff, 0xffffffff],
    [0xfff8dead, 0xbeef0001],
  ];
  for (const [high, low] of patterns) {
    view.setUint32(0, low!, true);
    view.setUint32(4, high!, true);
    view.setFloat64(8, view.getFloat64(0, true), true);
    if (view.getUint32(8, true) !== low || view.getUint32(12, true) !== high) return false;
  }
  return true;
}

export let float64Moves = float64MovesExact();

/**
 * Turn the float64 moves off (or back on, where exact) — for tests of the 4-byte moves other
 * engines take. Not exported from the package.
 */
export function useFloat64Moves(on: boolean): void {
  float64Moves = on && float64MovesExact();
}

/** A `distance` for {@link moveExact}: source and destination do not overlap. */
export const SEPARATE = 0x7fffffff;

/**
 * Move exactly `length` bytes from `fromBytes[from..]` (also read through `fromView`) to
 * `out[op..]`, which starts `distance` bytes after the source in the same array (a copy, §2.2
 * overlap) or is elsewhere ({@link SEPARATE}); returns the new output position. Moves 8 bytes
 * at a time where float64 moves are exact and the distance allows, else 4, and the last
 * move ends exactly at the end: it may overlap the one before, rewriting those bytes from
 * the same source bytes (the source ends `distance` ≥ the move width before it, so no move
 * has changed them). Single bytes only below 4 bytes or at a distance below 4. Every byte a
 * move reads was written before; nothing is read or written past the `length` bytes (the
 * compressor's literals, the decoder's checked path). No tail loop: compressInto of gossip
 * messages −13–18 %, of beacon-block −8 % (package README).
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
  if (length >= 8 && distance >= 8 && float64Moves) {
    const last = (stop - 8) | 0;
    const lastFrom = (from + length - 8) | 0;
    while (op < last) {
      outView.setFloat64(op, fromView.getFloat64(from, true), true);
      op = (op + 8) | 0;
      from = (from + 8) | 0;
    }
    outView.setFloat64(last, fromView.getFloat64(lastFrom, true), true);
    return stop;
  }
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

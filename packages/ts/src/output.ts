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
 * Move exactly `length` bytes from `fromBytes[from..]` (also read through `fromView`) to
 * `out[op..]`, 4 at a time when `wide`, else one by one; returns the new output position.
 * Nothing is read or written past the `length` bytes (the compressor's literals, the
 * decoder's checked path).
 */
export function moveExact(
  fromView: DataView,
  fromBytes: Uint8Array,
  from: number,
  out: Uint8Array,
  outView: DataView,
  op: number,
  length: number,
  wide: boolean,
): number {
  const stop = op + length;
  if (wide) {
    while (op + 4 <= stop) {
      outView.setInt32(op, fromView.getInt32(from, true), true);
      op += 4;
      from += 4;
    }
  }
  while (op < stop) out[op++] = fromBytes[from++]!;
  return stop;
}

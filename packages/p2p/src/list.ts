/**
 * A list of byte arrays read as one run of bytes: `uint8arraylist`'s `Uint8ArrayList`, which
 * libp2p stream sources yield, is one. Only iterating its parts is relied on.
 */
export interface ByteList {
  [Symbol.iterator](): Iterator<Uint8Array>;
}

/**
 * A source item as the byte arrays framing reads: a list's parts in place (never flattened
 * into a copy), anything else as it is (framing's `ByteReader` checks it). When `ByteReader`
 * accepts lists itself, this goes.
 */
export function partsOf(item: Uint8Array | ByteList): Iterable<Uint8Array> {
  return item instanceof Uint8Array || typeof item?.[Symbol.iterator] !== "function"
    ? [item as Uint8Array]
    : item;
}

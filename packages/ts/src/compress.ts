// Block compressor. Writes the same bytes as Google libsnappy 1.1.7 (and Rust `snap`, which
// snappy@7 binds): same block splitting, hash table sizing, hash, skip heuristic and
// literal/copy emission. Each rule was checked against snappy@7's output (compress.test.ts).
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import { maxCompressedLength, SnappyError } from "@snappykit/core";

/**
 * libsnappy compresses its input in independent 64 KiB fragments (kBlockSize): the hash
 * table only holds 16-bit positions, so no copy ever reaches into an earlier block.
 */
const BLOCK_SIZE = 1 << 16;

/** libsnappy 1.1.7 kMaxHashTableSize; later versions use 1 << 15 and write other bytes. */
const MAX_TABLE_SIZE = 1 << 14;

/** libsnappy's smallest hash table. */
const MIN_TABLE_SIZE = 1 << 8;

/**
 * kInputMarginBytes: matching stops this far from the block end, and a block shorter than
 * this is emitted as one literal.
 */
const INPUT_MARGIN = 15;

/** Literals up to this long are copied byte by byte; longer ones with `set` (one call). */
const SHORT_LITERAL = 32;

/** The multiplicative hash libsnappy uses (`HashBytes`): `(bytes * 0x1e35a7bd) >> shift`. */
const HASH_MULTIPLIER = 0x1e35a7bd;

/**
 * Shared hash table of block-relative positions, cleared (only the part in use) per block.
 * Module-level so compressing allocates nothing but its output; safe because compression is
 * synchronous and never re-entered.
 */
const table = new Uint16Array(MAX_TABLE_SIZE);

/** The 4 bytes at `i`, little-endian, as a signed 32-bit integer (compared, hashed, never printed). */
function load32(src: Uint8Array, i: number): number {
  return src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16) | (src[i + 3]! << 24);
}

/**
 * Write a literal of `length` (≥ 1) bytes from `src[from..]` at `out[op]`; returns the new `op`.
 *
 * §2.1 Literals (00): the tag's upper six bits hold length-1 when it is below 60; otherwise
 * they hold 60..63, meaning length-1 follows in 1..4 little-endian bytes. libsnappy uses the
 * fewest bytes that fit (a block is at most 64 KiB, so at most two).
 */
function emitLiteral(
  src: Uint8Array,
  from: number,
  length: number,
  out: Uint8Array,
  op: number,
): number {
  const n = length - 1;
  if (n < 60) {
    out[op++] = n << 2;
  } else if (n < 0x100) {
    out[op++] = 60 << 2;
    out[op++] = n;
  } else {
    out[op++] = 61 << 2;
    out[op++] = n & 0xff;
    out[op++] = n >>> 8;
  }
  if (length <= SHORT_LITERAL) {
    for (let i = 0; i < length; i++) out[op + i] = src[from + i]!;
  } else {
    out.set(src.subarray(from, from + length), op);
  }
  return op + length;
}

/**
 * Write one copy of `length` (4..64) bytes at `offset` (1..65535); returns the new `op`.
 *
 * §2.2.1 Copy with 1-byte offset (01): lengths 4..11 and offsets below 2048, the offset's top
 * three bits in the tag. §2.2.2 Copy with 2-byte offset (10): lengths 1..64, offsets below
 * 65536, little-endian. libsnappy never emits §2.2.3 (4-byte offsets): blocks are ≤ 64 KiB.
 */
function emitCopyAtMost64(out: Uint8Array, op: number, offset: number, length: number): number {
  if (length < 12 && offset < 2048) {
    out[op] = 1 | ((length - 4) << 2) | ((offset >>> 3) & 0xe0);
    out[op + 1] = offset & 0xff;
    return op + 2;
  }
  out[op] = 2 | ((length - 1) << 2);
  out[op + 1] = offset & 0xff;
  out[op + 2] = offset >>> 8;
  return op + 3;
}

/**
 * Write a match of any length ≥ 4 as copies; libsnappy's `EmitCopy` rule: 64-byte copies while
 * at least 68 remain (so the tail never drops below 4, the shortest copy it emits), then 60
 * if more than 64 remain, then the rest.
 */
function emitCopy(out: Uint8Array, op: number, offset: number, length: number): number {
  while (length >= 68) {
    op = emitCopyAtMost64(out, op, offset, 64);
    length -= 64;
  }
  if (length > 64) {
    op = emitCopyAtMost64(out, op, offset, 60);
    length -= 60;
  }
  return emitCopyAtMost64(out, op, offset, length);
}

/**
 * Compress `src[base..end)` (at most one 64 KiB block) into `out[op..]`; libsnappy's
 * `CompressFragment`. Returns the new `op`.
 */
function compressBlock(
  src: Uint8Array,
  base: number,
  end: number,
  out: Uint8Array,
  op: number,
): number {
  const length = end - base;
  if (length < INPUT_MARGIN) return emitLiteral(src, base, length, out, op);

  // Table size: smallest power of two ≥ the block, clamped to 256..16384 (GetHashTable).
  let tableSize = MIN_TABLE_SIZE;
  while (tableSize < MAX_TABLE_SIZE && tableSize < length) tableSize <<= 1;
  // shift = 32 - log2(tableSize), so the hash is the product's top log2(tableSize) bits.
  const shift = Math.clz32(tableSize) + 1;
  table.fill(0, 0, tableSize);

  const ipLimit = end - INPUT_MARGIN;
  let nextEmit = base;
  let ip = base + 1;
  let nextBytes = load32(src, ip);
  let nextHash = Math.imul(nextBytes, HASH_MULTIPLIER) >>> shift;

  for (;;) {
    // Search for a 4-byte match. After 32 misses the step grows by one byte every 32 probes
    // (skip >> 5), so incompressible data is skipped quickly ("heuristic match skipping").
    let skip = 32;
    let nextIp = ip;
    let candidate: number;
    let bytes: number;
    do {
      ip = nextIp;
      bytes = nextBytes;
      const hash = nextHash;
      const step = skip >>> 5;
      skip += step;
      nextIp = ip + step;
      if (nextIp > ipLimit) return emitRemainder(src, nextEmit, end, out, op);
      nextBytes = load32(src, nextIp);
      nextHash = Math.imul(nextBytes, HASH_MULTIPLIER) >>> shift;
      candidate = base + table[hash]!;
      table[hash] = ip - base;
    } while (bytes !== load32(src, candidate));

    // Everything since the last copy is a literal (never empty: ip > nextEmit here).
    op = emitLiteral(src, nextEmit, ip - nextEmit, out, op);

    // Emit copies for as long as the position right after a copy starts another match.
    let current: number;
    do {
      // Extend the match as far as it goes within the block (FindMatchLength).
      let s = ip + 4;
      let c = candidate + 4;
      while (s < end && src[s] === src[c]) {
        s++;
        c++;
      }
      op = emitCopy(out, op, ip - candidate, s - ip);
      ip = s;
      nextEmit = ip;
      if (ip >= ipLimit) return emitRemainder(src, nextEmit, end, out, op);
      // Index the byte before and at the new position, as libsnappy does, then try the
      // position itself as the next match.
      const prevHash = Math.imul(load32(src, ip - 1), HASH_MULTIPLIER) >>> shift;
      table[prevHash] = ip - 1 - base;
      current = load32(src, ip);
      const currentHash = Math.imul(current, HASH_MULTIPLIER) >>> shift;
      candidate = base + table[currentHash]!;
      table[currentHash] = ip - base;
    } while (current === load32(src, candidate));

    ip++;
    nextBytes = load32(src, ip);
    nextHash = Math.imul(nextBytes, HASH_MULTIPLIER) >>> shift;
  }
}

function emitRemainder(
  src: Uint8Array,
  nextEmit: number,
  end: number,
  out: Uint8Array,
  op: number,
): number {
  return nextEmit < end ? emitLiteral(src, nextEmit, end - nextEmit, out, op) : op;
}

/**
 * Compress `input` to the Snappy raw format, writing the same bytes as Google libsnappy 1.1.7
 * and snappy@7 (Rust `snap`).
 *
 * The output is a fresh `Uint8Array` of exactly the compressed size; nothing else is
 * allocated (the hash table is reused across calls).
 *
 * @throws SnappyError `INVALID_ARGUMENT` when `input` is not a `Uint8Array` or is longer than
 * the 2^32-1 bytes the format can declare.
 */
export function compress(input: Uint8Array): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new SnappyError("INVALID_ARGUMENT", `input must be a Uint8Array, got ${typeof input}`);
  }
  const n = input.length;
  if (n > 0xffff_ffff) {
    throw new SnappyError("INVALID_ARGUMENT", `input of ${n} bytes exceeds Snappy's 2^32-1`);
  }
  const out = new Uint8Array(maxCompressedLength(n));
  // §1 Preamble: the uncompressed length as a little-endian varint (≤ 5 bytes).
  let op = 0;
  let v = n;
  while (v >= 0x80) {
    out[op++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[op++] = v;
  for (let start = 0; start < n; start += BLOCK_SIZE) {
    op = compressBlock(input, start, Math.min(start + BLOCK_SIZE, n), out, op);
  }
  return out.subarray(0, op);
}

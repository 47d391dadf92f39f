// Block compressor. Writes the same bytes as Google libsnappy 1.1.7 (and Rust `snap`, which
// snappy@7 binds): same block splitting, hash table sizing, hash, skip heuristic and
// literal/copy emission. Each rule was checked against snappy@7's output (compress.test.ts).
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import { assertBytes, assertOutputSpace, maxCompressedLength } from "@snappykit/core";
import { moveExact, SEPARATE, viewOf } from "./output.js";

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

/** Literals up to this long are moved 8 or 4 bytes at a time; longer ones with `set` (one call). */
const SHORT_LITERAL = 256;

/** The multiplicative hash libsnappy uses (`HashBytes`): `(bytes * 0x1e35a7bd) >> shift`. */
const HASH_MULTIPLIER = 0x1e35a7bd;

/**
 * Shared hash table of block positions, cleared (only the part in use) per block.
 * Module-level so compressing allocates nothing but its output; safe because compression is
 * synchronous and never re-entered.
 */
const sharedTable = new Uint16Array(MAX_TABLE_SIZE);

/**
 * Each block is copied here first: a `DataView` made once reads 4 bytes in one load (about
 * twice as fast as combining four byte loads), and every read sees the same array type. The
 * copy costs ~2 µs per 64 KiB; making a `DataView` over the caller's buffer costs an
 * allocation per call, which small messages cannot afford.
 */
const sharedBlock = new Uint8Array(BLOCK_SIZE);
const sharedBlockView = new DataView(sharedBlock.buffer);

/** Largest output staged in {@link scratch}: the worst case of a 1 MiB input. */
const SCRATCH_MAX = maxCompressedLength(1 << 20);

/** Reused output buffer, grown on demand up to {@link SCRATCH_MAX}. */
let scratch = new Uint8Array(maxCompressedLength(4096));
let scratchView = new DataView(scratch.buffer);

/**
 * Write a literal of `length` (≥ 1) bytes from `block[from..]` at `out[op]`; returns the new `op`.
 *
 * §2.1 Literals (00): the tag's upper six bits hold length-1 when it is below 60; otherwise
 * they hold 60..63, meaning length-1 follows in 1..4 little-endian bytes. libsnappy uses the
 * fewest bytes that fit (a block is at most 64 KiB, so at most two).
 */
function emitLiteral(
  from: number,
  length: number,
  out: Uint8Array,
  outView: DataView,
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
    outView.setUint16(op, n, true);
    op += 2;
  }
  // Exact (no over-read: bytes past the block are stale data from earlier calls).
  if (length <= SHORT_LITERAL) {
    return moveExact(sharedBlockView, sharedBlock, from, out, outView, op, length, SEPARATE);
  }
  out.set(sharedBlock.subarray(from, from + length), op);
  return op + length;
}

/**
 * Write a match of `length` ≥ 4 bytes at `offset` (1..65535) as copies; returns the new `op`.
 * libsnappy's `EmitCopy` rule: 64-byte copies while at least 68 remain (so the tail never
 * drops below 4, the shortest copy it emits), then 60 if more than 64 remain, then the rest.
 *
 * §2.2.1 Copy with 1-byte offset (01): lengths 4..11 and offsets below 2048, the offset's top
 * three bits in the tag. §2.2.2 Copy with 2-byte offset (10): lengths 1..64, offsets below
 * 65536, little-endian. libsnappy never emits §2.2.3 (4-byte offsets): blocks are ≤ 64 KiB.
 */
function emitCopy(
  out: Uint8Array,
  outView: DataView,
  op: number,
  offset: number,
  length: number,
): number {
  while (length >= 12 || offset >= 2048) {
    const n = length >= 68 ? 64 : length > 64 ? 60 : length;
    out[op] = 2 | ((n - 1) << 2);
    outView.setUint16(op + 1, offset, true);
    op += 3;
    length -= n;
    // A 60-byte copy leaves 5..7, which may still fit a copy-1.
    if (length === 0) return op;
  }
  out[op] = 1 | ((length - 4) << 2) | ((offset >>> 3) & 0xe0);
  out[op + 1] = offset & 0xff;
  return op + 2;
}

/**
 * Compress `block[0..length)` (one block of at most 64 KiB) into `out[op..]`; libsnappy's
 * `CompressFragment`. Returns the new `op`.
 */
function compressBlock(length: number, out: Uint8Array, outView: DataView, op: number): number {
  if (length < INPUT_MARGIN) return emitLiteral(0, length, out, outView, op);
  // Locals, not the module bindings: each module-variable read is a load chain the
  // optimiser repeats at every use (measured: see the package README).
  const table = sharedTable;
  const block = sharedBlock;
  const blockView = sharedBlockView;

  // Table size: smallest power of two ≥ the block, clamped to 256..16384 (GetHashTable).
  let tableSize = MIN_TABLE_SIZE;
  while (tableSize < MAX_TABLE_SIZE && tableSize < length) tableSize <<= 1;
  // shift = 32 - log2(tableSize), so the hash is the product's top log2(tableSize) bits.
  const shift = Math.clz32(tableSize) + 1;
  table.fill(0, 0, tableSize);

  const ipLimit = length - INPUT_MARGIN;
  let nextEmit = 0;
  let ip = 1;
  let nextBytes = blockView.getInt32(ip, true);
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
      skip = (skip + step) | 0;
      nextIp = (ip + step) | 0;
      if (nextIp > ipLimit) return emitRemainder(nextEmit, length, out, outView, op);
      nextBytes = blockView.getInt32(nextIp, true);
      nextHash = Math.imul(nextBytes, HASH_MULTIPLIER) >>> shift;
      candidate = table[hash]!;
      table[hash] = ip;
    } while (bytes !== blockView.getInt32(candidate, true));

    // Everything since the last copy is a literal (never empty: ip > nextEmit here).
    op = emitLiteral(nextEmit, ip - nextEmit, out, outView, op);

    // Emit copies for as long as the position right after a copy starts another match.
    let current: number;
    do {
      // Extend the match as far as it goes within the block (FindMatchLength): 4 bytes at a
      // time, the first differing byte found from the XOR's lowest set bit.
      let s = (ip + 4) | 0;
      let c = (candidate + 4) | 0;
      for (;;) {
        if (s > length - 4) {
          while (s < length && block[s] === block[c]) {
            s = (s + 1) | 0;
            c = (c + 1) | 0;
          }
          break;
        }
        const diff = blockView.getInt32(s, true) ^ blockView.getInt32(c, true);
        if (diff !== 0) {
          s = (s + ((31 - Math.clz32(diff & -diff)) >>> 3)) | 0;
          break;
        }
        s = (s + 4) | 0;
        c = (c + 4) | 0;
      }
      op = emitCopy(out, outView, op, ip - candidate, s - ip);
      ip = s;
      nextEmit = ip;
      if (ip >= ipLimit) return emitRemainder(nextEmit, length, out, outView, op);
      // Index the byte before and at the new position, as libsnappy does, then try the
      // position itself as the next match.
      const prevHash = Math.imul(blockView.getInt32((ip - 1) | 0, true), HASH_MULTIPLIER) >>> shift;
      table[prevHash] = (ip - 1) | 0;
      current = blockView.getInt32(ip, true);
      const currentHash = Math.imul(current, HASH_MULTIPLIER) >>> shift;
      candidate = table[currentHash]!;
      table[currentHash] = ip;
    } while (current === blockView.getInt32(candidate, true));

    ip = (ip + 1) | 0;
    nextBytes = blockView.getInt32(ip, true);
    nextHash = Math.imul(nextBytes, HASH_MULTIPLIER) >>> shift;
  }
}

function emitRemainder(
  nextEmit: number,
  length: number,
  out: Uint8Array,
  outView: DataView,
  op: number,
): number {
  return nextEmit < length ? emitLiteral(nextEmit, length - nextEmit, out, outView, op) : op;
}

/**
 * Compress `input` into `out[0..)`, which has room for its worst case
 * (`maxCompressedLength(input.length)`); returns the bytes written. Writes nothing past them.
 */
function compressTo(input: Uint8Array, out: Uint8Array, outView: DataView): number {
  const n = input.length;
  // §1 Preamble: the uncompressed length as a little-endian varint (≤ 5 bytes).
  let op = 0;
  let v = n;
  while (v >= 0x80) {
    out[op++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[op++] = v;
  if (n === 0) {
    // The preamble alone: an empty block would be emitted as a zero-length literal.
  } else if (n <= BLOCK_SIZE) {
    sharedBlock.set(input);
    op = compressBlock(n, out, outView, op);
  } else {
    for (let from = 0; from < n; from += BLOCK_SIZE) {
      const to = Math.min(from + BLOCK_SIZE, n);
      sharedBlock.set(input.subarray(from, to));
      op = compressBlock(to - from, out, outView, op);
    }
  }
  return op;
}

/**
 * Compress `input` to the Snappy raw format, writing the same bytes as Google libsnappy 1.1.7
 * and snappy@7 (Rust `snap`).
 *
 * The result owns its memory: a `Uint8Array` of exactly the compressed length at
 * `byteOffset` 0 of a buffer of its own. Inputs up to 1 MiB are compressed into a reused
 * buffer and copied out; larger ones into a worst-case-size buffer that is then copied out
 * at the exact size.
 *
 * @throws SnappyError `INVALID_ARGUMENT` when `input` is not a `Uint8Array` or is longer than
 * the 2^32-1 bytes the format can declare.
 */
export function compress(input: Uint8Array): Uint8Array {
  assertBytes(input);
  // Also rejects an input over the 2^32-1 bytes the preamble can declare.
  const max = maxCompressedLength(input.length);
  if (max <= SCRATCH_MAX) {
    // A fresh worst-case buffer costs more in page faults and zeroing than the copy does.
    if (scratch.length < max) {
      scratch = new Uint8Array(Math.max(max, Math.min(2 * scratch.length, SCRATCH_MAX)));
      scratchView = new DataView(scratch.buffer);
    }
    return scratch.slice(0, compressTo(input, scratch, scratchView));
  }
  const out = new Uint8Array(max);
  return out.slice(0, compressTo(input, out, new DataView(out.buffer)));
}

/**
 * Compress `input` into `output[0..n)` and return `n`: the same bytes {@link compress}
 * returns, with nothing written past them and nothing allocated.
 *
 * @throws SnappyError `OUTPUT_TOO_SMALL` (before writing) when `output` is shorter than
 * `maxCompressedLength(input.length)`, even if this input would have fit;
 * `INVALID_ARGUMENT` when either is not a `Uint8Array`, `output` overlaps `input`, or
 * `input` is longer than 2^32-1 bytes.
 */
export function compressInto(input: Uint8Array, output: Uint8Array): number {
  assertBytes(input);
  assertOutputSpace(input, output, maxCompressedLength(input.length));
  return compressTo(input, output, viewOf(output));
}

// The codec where WebAssembly does not compile (kernel.ts): a plain decoder and block
// compressor, one element at a time, straight between the caller's arrays, in the style of
// golang/snappy's decode_other.go and encode_other.go. The same bytes and the same errors as
// the kernel's path (checked.ts, compress.ts); slower (the package README says how much).
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import { corrupt, endsShort, lengthCut, pastDeclared, pastInput, pastStart } from "./errors.js";
import {
  BLOCK_SIZE,
  COPY_MAX_LENGTH,
  COPY1_MAX_LENGTH,
  COPY1_MIN_LENGTH,
  COPY1_OFFSET_LIMIT,
  LITERAL_LENGTH_IN_TAG,
  TAG_COPY1,
  TAG_COPY2,
  TAG_LITERAL,
} from "./tags.js";

/**
 * Decode the elements of `input[pos..)` into `dest[0..outEnd)`, `outEnd` being the declared
 * length: every length and offset is checked before it is used, nothing at or past `outEnd`
 * is written, and a stream that produces anything but `outEnd` bytes is rejected.
 */
export function decodePlain(input: Uint8Array, pos: number, dest: Uint8Array, outEnd: number) {
  const n = input.length;
  let op = 0;
  while (pos < n) {
    const tagAt = pos;
    const tag = input[pos++]!;
    let length: number;
    let offset: number;
    switch (tag & 3) {
      case TAG_LITERAL: {
        // §2.1 Literals: length-1 in the tag's upper six bits, or for 60..63 in the next
        // 1..4 little-endian bytes.
        length = tag >>> 2;
        if (length >= LITERAL_LENGTH_IN_TAG) {
          const extra = length - LITERAL_LENGTH_IN_TAG + 1;
          if (extra > n - pos) throw lengthCut(extra, n - pos, tagAt);
          length = 0;
          for (let i = extra - 1; i >= 0; i--) length = length * 256 + input[pos + i]!;
          pos += extra;
        }
        length += 1;
        if (length > n - pos) throw pastInput(length, n - pos, op, tagAt);
        if (length > outEnd - op) throw pastDeclared("literal", length, op, outEnd, tagAt);
        dest.set(input.subarray(pos, pos + length), op);
        pos += length;
        op += length;
        continue;
      }
      case TAG_COPY1:
        // §2.2.1 Copy with 1-byte offset: length 4..11 in bits 2..4, offset's top 3 bits in 5..7.
        if (pos >= n) throw corrupt("truncated", "copy-1 tag is missing its offset byte", tagAt);
        length = COPY1_MIN_LENGTH + ((tag >>> 2) & 7);
        offset = ((tag >>> 5) << 8) | input[pos]!;
        pos += 1;
        break;
      case TAG_COPY2:
        // §2.2.2 Copy with 2-byte offset: length 1..64 in the upper six bits, offset LE16.
        if (n - pos < 2) throw corrupt("truncated", "copy-2 tag is missing offset bytes", tagAt);
        length = (tag >>> 2) + 1;
        offset = input[pos]! | (input[pos + 1]! << 8);
        pos += 2;
        break;
      default:
        // §2.2.3 Copy with 4-byte offset: as above with an LE32 offset.
        if (n - pos < 4) throw corrupt("truncated", "copy-4 tag is missing offset bytes", tagAt);
        length = (tag >>> 2) + 1;
        offset = load32(input, pos) >>> 0;
        pos += 4;
    }
    // §2.2: the offset is backwards from the current position; 0 is invalid, and it may not
    // reach before the start of the output.
    if (offset === 0) throw corrupt("offset-zero", "copy with offset 0", tagAt, { produced: op });
    if (offset > op) throw pastStart(offset, op, tagAt);
    if (length > outEnd - op) throw pastDeclared("copy", length, op, outEnd, tagAt);
    // Byte by byte: a copy may overlap its own output (offset < length, §2.2), and then each
    // byte read was written by this loop.
    for (const stop = op + length; op < stop; op++) dest[op] = dest[op - offset]!;
  }
  if (op !== outEnd) throw endsShort(op, outEnd, n);
}

/** The 4 bytes at `bytes[i..i+4)`, little-endian, as a signed 32-bit integer. */
function load32(bytes: Uint8Array, i: number): number {
  return bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
}

/** libsnappy 1.1.7's kMaxHashTableSize (later versions use 1 << 15 and write other bytes). */
const MAX_TABLE_SIZE = 1 << 14;

/** libsnappy's smallest hash table. */
const MIN_TABLE_SIZE = 1 << 8;

/**
 * kInputMarginBytes: matching stops this far from the block end, and a block shorter than
 * this is one literal.
 */
const INPUT_MARGIN = 15;

/** The hash table of block positions, reused: compression is synchronous and never re-entered. */
const table = new Uint16Array(MAX_TABLE_SIZE);

/**
 * Compress `src` into `dst[d..)`, which has room for its worst case, block after block
 * (libsnappy compresses independent 64 KiB blocks: the table holds 16-bit positions, so no
 * copy reaches into an earlier block); returns the new `d`. The preamble is the caller's.
 */
export function compressPlain(src: Uint8Array, dst: Uint8Array, d: number): number {
  for (let at = 0; at < src.length; at += BLOCK_SIZE) {
    d = compressBlock(src.subarray(at, Math.min(at + BLOCK_SIZE, src.length)), dst, d);
  }
  return d;
}

/** libsnappy 1.1.7's CompressFragment: the same hash, table size, skipping and elements. */
function compressBlock(src: Uint8Array, dst: Uint8Array, d: number): number {
  const n = src.length;
  if (n < INPUT_MARGIN) return emitLiteral(dst, d, src, 0, n);
  // GetHashTable: the smallest power of two ≥ the block, within 256..16384; the hash is the
  // product's top log2(tableSize) bits.
  let tableSize = MIN_TABLE_SIZE;
  while (tableSize < MAX_TABLE_SIZE && tableSize < n) tableSize *= 2;
  const shift = Math.clz32(tableSize) + 1;
  const hash = (i: number) => Math.imul(load32(src, i), 0x1e35a7bd) >>> shift;
  table.fill(0, 0, tableSize);

  const sLimit = n - INPUT_MARGIN;
  let nextEmit = 0;
  let s = 1;
  let nextHash = hash(s);
  for (;;) {
    // Look for a 4-byte match. After 32 misses the step grows by one byte every 32 probes
    // (skip >> 5), so incompressible data is skipped quickly.
    let skip = 32;
    let nextS = s;
    let candidate: number;
    do {
      s = nextS;
      const step = skip >>> 5;
      skip += step;
      nextS = s + step;
      if (nextS > sLimit) return emitLiteral(dst, d, src, nextEmit, n);
      candidate = table[nextHash]!;
      table[nextHash] = s;
      nextHash = hash(nextS);
    } while (load32(src, s) !== load32(src, candidate));

    // Everything since the last copy is a literal; then copies for as long as the position
    // right after one starts another match.
    d = emitLiteral(dst, d, src, nextEmit, s);
    do {
      const base = s;
      s += 4;
      for (let c = candidate + 4; s < n && src[s] === src[c]; c++) s++;
      d = emitCopy(dst, d, base - candidate, s - base);
      nextEmit = s;
      if (s >= sLimit) return emitLiteral(dst, d, src, nextEmit, n);
      // Index the position before the new one, as libsnappy does; try the new one itself.
      table[hash(s - 1)] = s - 1;
      const h = hash(s);
      candidate = table[h]!;
      table[h] = s;
    } while (load32(src, s) === load32(src, candidate));
    s += 1;
    nextHash = hash(s);
  }
}

/**
 * Write `src[from..to)` as a literal at `dst[d..)` (nothing when empty); returns the new `d`.
 * §2.1: length-1 in the tag below 60, else in the fewest bytes that fit after tag 60 or 61
 * (a block is at most 64 KiB, so at most two).
 */
function emitLiteral(dst: Uint8Array, d: number, src: Uint8Array, from: number, to: number) {
  const n = to - from - 1;
  if (n < 0) return d;
  if (n < LITERAL_LENGTH_IN_TAG) {
    dst[d++] = (n << 2) | TAG_LITERAL;
  } else if (n < 256) {
    dst[d++] = LITERAL_LENGTH_IN_TAG << 2;
    dst[d++] = n;
  } else {
    dst[d++] = (LITERAL_LENGTH_IN_TAG + 1) << 2;
    dst[d++] = n & 0xff;
    dst[d++] = n >>> 8;
  }
  dst.set(src.subarray(from, to), d);
  return d + n + 1;
}

/**
 * Write a match of `length` ≥ 4 bytes at `offset` (1..65535) as copies; returns the new `d`.
 * libsnappy's EmitCopy: 64-byte copies while at least 68 remain (so the rest is never under
 * 4), then 60 if more than 64 remain, then the rest: §2.2.1 copy-1 when it is 4..11 bytes at
 * an offset below 2048, else §2.2.2 copy-2. libsnappy never writes copy-4 (§2.2.3).
 */
function emitCopy(dst: Uint8Array, d: number, offset: number, length: number): number {
  while (length > 0) {
    const n =
      length >= COPY_MAX_LENGTH + COPY1_MIN_LENGTH
        ? COPY_MAX_LENGTH
        : length > COPY_MAX_LENGTH
          ? COPY_MAX_LENGTH - COPY1_MIN_LENGTH
          : length;
    if (n <= COPY1_MAX_LENGTH && offset < COPY1_OFFSET_LIMIT) {
      dst[d++] = TAG_COPY1 | ((n - COPY1_MIN_LENGTH) << 2) | ((offset >>> 8) << 5);
      dst[d++] = offset & 0xff;
    } else {
      dst[d++] = TAG_COPY2 | ((n - 1) << 2);
      dst[d++] = offset & 0xff;
      dst[d++] = offset >>> 8;
    }
    length -= n;
  }
  return d;
}

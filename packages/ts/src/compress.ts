// Block compressor. Writes the same bytes as Google libsnappy 1.1.7 (and Rust `snap`, which
// snappy@7 binds): same block splitting, hash table sizing, hash, skip heuristic and
// literal/copy emission. Each rule was checked against snappy@7's output (compress.test.ts).
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import { bytesOf, maxCompressedLength, outputSpace } from "@snappykit/core";
import { kernel } from "./kernel.js";
import { moveExact, SEPARATE, viewOf } from "./output.js";
import {
  BLOCK_SIZE,
  COPY_MAX_LENGTH,
  COPY1_MAX_LENGTH,
  COPY1_MIN_LENGTH,
  COPY1_OFFSET_LIMIT,
  LITERAL_LENGTH_IN_TAG,
  TAG_COPY1,
  TAG_COPY2,
} from "./tags.js";

// libsnappy compresses its input in independent BLOCK_SIZE (64 KiB) fragments: the hash
// table only holds 16-bit positions, so no copy ever reaches into an earlier block.

/** tags.ts's numbers, as constants of this module (see tags.ts). */
const COPY1 = TAG_COPY1;
const COPY2 = TAG_COPY2;
const COPY1_MIN = COPY1_MIN_LENGTH;
const COPY1_MAX = COPY1_MAX_LENGTH;
const COPY1_OFFSETS = COPY1_OFFSET_LIMIT;
const LENGTH_IN_TAG = LITERAL_LENGTH_IN_TAG;
const MAX = COPY_MAX_LENGTH;

/** libsnappy 1.1.7 kMaxHashTableSize; later versions use 1 << 15 and write other bytes. */
const MAX_TABLE_SIZE = 1 << 14;

/** libsnappy's smallest hash table. */
const MIN_TABLE_SIZE = 1 << 8;

/**
 * kInputMarginBytes: matching stops this far from the block end, and a block shorter than
 * this is emitted as one literal.
 */
const INPUT_MARGIN = 15;

/** Literals up to this long are moved 8 bytes at a time; longer ones with `set` (one call). */
const SHORT_LITERAL = 256;

/**
 * Literal moves run up to 7 bytes past the literal's end: the block buffer has this much
 * more room (the bytes read there are an earlier input's and are never counted), and the
 * staged bytes past the literal are rewritten by the next element or block, or lie past the
 * output, which is copied out at its exact size.
 */
const OVERRUN = 8;

/** The multiplicative hash libsnappy uses (`HashBytes`): `(bytes * 0x1e35a7bd) >> shift`. */
const HASH_MULTIPLIER = 0x1e35a7bd;

/**
 * compressBlock in WebAssembly (kernel.wat: the same bytes, but the block's last literal), and
 * where that literal starts; null where WebAssembly is not available. With it, the block and
 * the staged output below are regions of its memory (kernel.ts), and the hash table is its own.
 */
const KERNEL_COMPRESS_BLOCK = kernel ? kernel.compressBlock : null;
const KERNEL_STATE = kernel ? kernel.state : new Int32Array(2);

/**
 * Shared hash table of block positions, cleared (only the part in use) per block.
 * Module-level so compressing allocates nothing but its output; safe because compression is
 * synchronous and never re-entered.
 */
const sharedTable = new Uint16Array(kernel ? 0 : MAX_TABLE_SIZE);

/**
 * Each block is copied here first: a `DataView` made once reads 4 bytes in one load (about
 * twice as fast as combining four byte loads), and every read sees the same array type. The
 * copy costs ~2 µs per 64 KiB; making a `DataView` over the caller's buffer costs an
 * allocation per call, which small messages cannot afford.
 */
const sharedBlock = kernel
  ? new Uint8Array(kernel.memory, kernel.blockAt, BLOCK_SIZE + OVERRUN)
  : new Uint8Array(BLOCK_SIZE + OVERRUN);
const sharedBlockView = new DataView(
  sharedBlock.buffer,
  sharedBlock.byteOffset,
  sharedBlock.length,
);

/**
 * `compress` stages inputs up to this long whole (block after block in {@link staged}) and
 * copies the result out of it. With 1 MiB (a 1.2 MiB staging buffer) blocks-by-range ran
 * 1.39× slower, for a reason not found; with 256 KiB as fast as one block at a time.
 */
const PART = 1 << 18;

/**
 * Compressed blocks are written into this module constant, then copied out. The optimiser
 * folds a constant's length and data pointer into every store, where a caller's array is
 * re-checked and reloaded around every move: beacon-block `compressInto` with the copy took
 * 0.92× the time of writing to the caller's array. Room for the worst case of {@link PART}
 * input bytes; pages past what an input writes are never touched.
 */
const staged = kernel
  ? new Uint8Array(kernel.memory, kernel.stagedAt, maxCompressedLength(PART))
  : new Uint8Array(maxCompressedLength(PART));
const stagedView = new DataView(staged.buffer, staged.byteOffset, staged.length);

/** Outputs up to this long are copied out with 4-byte moves; longer ones with `set`. */
const SHORT_OUTPUT = 256;

/**
 * The bytes of the block's last literal that the last {@link compressBlock} call with
 * `leaveRest` did not write (0 when it wrote them all). {@link compressTo} copies them from
 * the input straight to the output: on incompressible data that is most of the output, and
 * going through the staging buffer would copy it twice.
 */
let restLeft = 0;

/** Largest output kept in {@link scratch}: the worst case of a 1 MiB input. */
export const SCRATCH_MAX = maxCompressedLength(1 << 20);

/** Reused buffer for inputs of more than one part, grown on demand up to {@link SCRATCH_MAX}. */
let scratch = new Uint8Array(0);
let scratchView = new DataView(scratch.buffer);

/**
 * What compress keeps between calls and where it stages, for the tests that check it (what it
 * keeps is bounded, a long last literal is not staged). A function, not exported bindings,
 * so the hot code keeps reading module constants (see windows.ts).
 */
export function internals() {
  return { staged, scratch, SHORT_LITERAL };
}

/**
 * Write the tag of a literal of `length` (≥ 1) bytes at `staged[op]`; returns the new `op`.
 *
 * §2.1 Literals (00): the tag's upper six bits hold length-1 when it is below 60; otherwise
 * they hold 60..63, meaning length-1 follows in 1..4 little-endian bytes. libsnappy uses the
 * fewest bytes that fit (a block is at most 64 KiB, so at most two).
 */
function emitLiteralTag(length: number, op: number): number {
  const n = (length - 1) | 0;
  // The tag and its length bytes as one store, without branches: 1 (n < 60), 2 (n < 256)
  // or 3 bytes; `long` is -1 from 60, `wide` 1 from 256.
  const long = (LENGTH_IN_TAG - 1 - n) >> 31;
  const wide = (255 - n) >>> 31;
  const tag = (n << 2) ^ (((n << 2) ^ ((LENGTH_IN_TAG << 2) | (wide << 2) | (n << 8))) & long);
  stagedView.setInt32(op, tag, true);
  return (op + 1 - long + wide) | 0;
}

/**
 * Write a literal of `length` (≥ 1) bytes from `block[from..]` at `staged[op]`; returns the
 * new `op`.
 */
function emitLiteral(from: number, length: number, op: number): number {
  const view = stagedView;
  const src = sharedBlockView;
  op = emitLiteralTag(length, op);
  const end = (op + length) | 0;
  if (length <= SHORT_LITERAL) {
    do {
      view.setInt32(op, src.getInt32(from, true), true);
      view.setInt32((op + 4) | 0, src.getInt32((from + 4) | 0, true), true);
      op = (op + 8) | 0;
      from = (from + 8) | 0;
    } while (op < end);
    return end;
  }
  staged.set(sharedBlock.subarray(from, from + length), op);
  return end;
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
function emitCopy(op: number, offset: number, length: number): number {
  const view = stagedView;
  for (;;) {
    // 64 while at least 68 remain; 60 from 65..67, which leaves 5..7; then the rest.
    const n = length >= MAX + COPY1_MIN ? MAX : length > MAX ? MAX - COPY1_MIN : length;
    // The copy's kind without a branch, which mispredicts on block data (lengths around 12
    // are common): both encodings built, one chosen by a mask (-1 for copy-1, only ever the
    // last), written as one 4-byte store. The byte past a copy-2 (two past a copy-1) is
    // rewritten by the next element or lies past the output, which is copied out exactly.
    const copy1 = ((n - COPY1_MAX - 1) & (offset - COPY1_OFFSETS)) >> 31;
    const copy2Bytes = COPY2 | ((n - 1) << 2) | (offset << 8);
    const copy1Bytes =
      COPY1 | ((n - COPY1_MIN) << 2) | ((offset >>> 3) & 0xe0) | ((offset & 0xff) << 8);
    view.setInt32(op, copy2Bytes ^ ((copy1Bytes ^ copy2Bytes) & copy1), true);
    op = (op + 3 + copy1) | 0;
    length = (length - n) | 0;
    // One loop for every match, long or short: a loop only long matches entered would have
    // no type feedback after small inputs, and its first use would discard the optimised code.
    if (length === 0) return op;
  }
}

/**
 * Compress `block[0..length)` (one block of 1 byte to 64 KiB) into `staged[op..]`;
 * libsnappy's `CompressFragment`. Returns the new `op`. With `leaveRest`, the bytes of a
 * last literal longer than {@link SHORT_LITERAL} are not written: {@link restLeft} says how
 * many there are, for the caller to copy from the input.
 */
function compressBlock(length: number, op: number, leaveRest: boolean): number {
  if (KERNEL_COMPRESS_BLOCK !== null) {
    op = KERNEL_COMPRESS_BLOCK(length, op);
    return emitLast(KERNEL_STATE[1]!, length, op, leaveRest);
  }
  if (length < INPUT_MARGIN) return emitLast(0, length, op, leaveRest);
  // Locals, not the module bindings: each module-variable read is a load chain the
  // optimiser repeats at every use (measured: docs/findings/2026-12-ts-wasm-kernel.md).
  const table = sharedTable;
  const block = sharedBlock;
  const blockView = sharedBlockView;

  // Table size: smallest power of two ≥ the block, clamped to 256..16384 (GetHashTable).
  // Computed, not looped up to: a loop that small inputs never enter has no type feedback,
  // and the optimised code would be thrown away at the first larger input.
  const tableSize = Math.min(
    MAX_TABLE_SIZE,
    Math.max(MIN_TABLE_SIZE, 1 << (32 - Math.clz32(length - 1))),
  );
  // shift = 32 - log2(tableSize), so the hash is the product's top log2(tableSize) bits.
  const shift = Math.clz32(tableSize) + 1;
  table.fill(0, 0, tableSize);

  const ipLimit = length - INPUT_MARGIN;
  let nextEmit = 0;
  let ip = 1;
  let nextBytes = blockView.getInt32(ip, true);
  let nextHash = Math.imul(nextBytes, HASH_MULTIPLIER) >>> shift;

  search: for (;;) {
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
      if (nextIp > ipLimit) break search;
      nextBytes = blockView.getInt32(nextIp, true);
      nextHash = Math.imul(nextBytes, HASH_MULTIPLIER) >>> shift;
      candidate = table[hash]!;
      table[hash] = ip;
    } while (bytes !== blockView.getInt32(candidate, true));

    // Everything since the last copy is a literal (never empty: ip > nextEmit here).
    op = emitLiteral(nextEmit, (ip - nextEmit) | 0, op);

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
      op = emitCopy(op, (ip - candidate) | 0, (s - ip) | 0);
      ip = s;
      nextEmit = ip;
      if (ip >= ipLimit) break search;
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
  return emitLast(nextEmit, length, op, leaveRest);
}

/**
 * The block's last literal, `block[nextEmit..length)` (within 15 bytes of its end, skipped
 * as unmatched, or the whole of a block under 15 bytes; maybe empty), at `staged[op]`;
 * returns the new `op`. With `leaveRest`, one longer than {@link SHORT_LITERAL} gets its tag
 * only and {@link restLeft} says how many bytes the caller copies from the input.
 */
function emitLast(nextEmit: number, length: number, op: number, leaveRest: boolean): number {
  const rest = (length - nextEmit) | 0;
  if (rest === 0) return op;
  if (leaveRest && rest > SHORT_LITERAL) {
    restLeft = rest;
    return emitLiteralTag(rest, op);
  }
  return emitLiteral(nextEmit, rest, op);
}

/** §1 Preamble: write `n` as a little-endian varint (≤ 5 bytes) at `out[0..)`; returns its length. */
function writePreamble(out: Uint8Array, n: number): number {
  let op = 0;
  while (n >= 0x80) {
    out[op++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 0x80);
  }
  out[op++] = n;
  return op;
}

/**
 * Compress an input of at most {@link PART} bytes into `staged[op..)`, block after block;
 * returns the new `op`.
 */
function compressPart(input: Uint8Array, op: number): number {
  const n = input.length;
  for (let at = 0; at < n; at += BLOCK_SIZE) {
    const end = Math.min(at + BLOCK_SIZE, n);
    // A whole input as it is: a subarray is an allocation, which gossip messages notice.
    sharedBlock.set(end - at === n ? input : input.subarray(at, end));
    op = compressBlock(end - at, op, false);
  }
  return op;
}

/**
 * Compress `input` into `out[0..)` (also seen through `outView`), which has room for its
 * worst case; returns the bytes written. Each block is staged, then copied out; a long last
 * literal of a block is copied from the input instead (see {@link restLeft}).
 */
function compressTo(input: Uint8Array, out: Uint8Array, outView: DataView): number {
  const n = input.length;
  let op = writePreamble(out, n);
  for (let at = 0; at < n; at += BLOCK_SIZE) {
    const end = Math.min(at + BLOCK_SIZE, n);
    sharedBlock.set(end - at === n ? input : input.subarray(at, end));
    restLeft = 0;
    const size = compressBlock(end - at, 0, true);
    // A short output: 4-byte moves cost less than making a subarray for `set`.
    op =
      size <= SHORT_OUTPUT
        ? moveExact(stagedView, staged, 0, out, outView, op, size, SEPARATE)
        : copyStaged(size, out, op);
    if (restLeft !== 0) {
      out.set(input.subarray(end - restLeft, end), op);
      op += restLeft;
    }
  }
  return op;
}

/** Copy `staged[0..size)` to `out[op..)`; returns the new `op`. */
function copyStaged(size: number, out: Uint8Array, op: number): number {
  out.set(staged.subarray(0, size), op);
  return op + size;
}

/**
 * Compress `input` to the Snappy raw format, writing the same bytes as Google libsnappy 1.1.7
 * and snappy@7 (Rust `snap`).
 *
 * The result owns its memory: a `Uint8Array` of exactly the compressed length at
 * `byteOffset` 0 of a buffer of its own, copied out of the staging buffer (for inputs over
 * 256 KiB, out of a reused buffer; over 1 MiB, out of a worst-case-size buffer).
 *
 * @throws SnappyError `INVALID_ARGUMENT` when `input` is not a `Uint8Array` or is longer than
 * the 2^32-1 bytes the format can declare.
 */
export function compress(given: Uint8Array): Uint8Array {
  // The caller's bytes as a plain view: nothing below calls a method of the caller's object.
  const input = bytesOf(given);
  const n = input.length;
  // Also rejects an input over the 2^32-1 bytes the preamble can declare.
  const max = maxCompressedLength(n);
  // An empty input is the preamble alone (an empty block would be a zero-length literal).
  if (n <= PART) return staged.slice(0, compressPart(input, writePreamble(staged, n)));
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
export function compressInto(given: Uint8Array, into: Uint8Array): number {
  const input = bytesOf(given);
  const output = outputSpace(input, into, maxCompressedLength(input.length));
  return compressTo(input, output, viewOf(output));
}

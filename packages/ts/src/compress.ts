// Block compressor. Writes the same bytes as Google libsnappy 1.1.7 (and Rust `snap`, which
// snappy@7 binds): each block is compressed by the WebAssembly kernel (kernel.wat:
// compressBlock, libsnappy's CompressFragment) in its memory, staged there and copied out;
// where the kernel does not load, plain.ts compresses. compress.test.ts checks the bytes
// against snappy@7's.
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import { bytesOf, maxCompressedLength, outputSpace } from "@snappykit/core";
import { kernel } from "./kernel.js";
import { prefixes, SMALL_COPY } from "./output.js";
import { compressPlain } from "./plain.js";
import { BLOCK_SIZE, LITERAL_LENGTH_IN_TAG } from "./tags.js";

/** tags.ts's number as a constant of this module, which V8 folds in (an import it does not). */
const LENGTH_IN_TAG = LITERAL_LENGTH_IN_TAG;

/** Literals up to this long are moved 8 bytes at a time; longer ones with `set` (one call). */
const SHORT_LITERAL = 256;

/**
 * Literal moves run up to 7 bytes past the literal's end: the block buffer has this much
 * more room (the bytes read there are an earlier input's and are never counted), and the
 * staged bytes past the literal are rewritten by the next element or block, or lie past the
 * output, which is copied out at its exact size.
 */
const OVERRUN = 8;

/** The kernel's compressBlock, and where the block's last literal starts (`state[1]`). */
const KERNEL_COMPRESS_BLOCK = kernel ? kernel.compressBlock : null;
const KERNEL_STATE = kernel ? kernel.state : new Int32Array(2);

/**
 * Each block is copied here first: a `DataView` made once reads 4 bytes in one load (about
 * twice as fast as combining four byte loads), and every read sees the same array type. The
 * copy costs ~2 µs per 64 KiB; making a `DataView` over the caller's buffer costs an
 * allocation per call, which small messages cannot afford.
 */
const sharedBlock = kernel
  ? new Uint8Array(kernel.memory, kernel.blockAt, BLOCK_SIZE + OVERRUN)
  : new Uint8Array(0);
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
  : new Uint8Array(0);
const stagedView = new DataView(staged.buffer, staged.byteOffset, staged.length);

/** A short output is copied out of {@link staged} through a reused subarray (see prefixes). */
const stagedPrefix = prefixes(staged);

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
 * Compress `block[0..length)` (one block of 1 byte to 64 KiB) into `staged[op..]` with the
 * kernel; returns the new `op`. With `leaveRest`, the bytes of a last literal longer than
 * {@link SHORT_LITERAL} are not written: {@link restLeft} says how many there are, for the
 * caller to copy from the input.
 */
function compressBlock(length: number, op: number, leaveRest: boolean): number {
  op = KERNEL_COMPRESS_BLOCK!(length, op);
  return emitLast(KERNEL_STATE[1]!, length, op, leaveRest);
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

// The compressor is chosen once, here and for compress below: the kernel's where it loaded,
// plain.ts's where it did not (kernel.ts says when).
const compressAll = kernel ? compressTo : compressPlainTo;

/**
 * Compress `input` into `out[0..)`, which has room for its
 * worst case; returns the bytes written. Each block is staged, then copied out; a long last
 * literal of a block is copied from the input instead (see {@link restLeft}).
 */
function compressTo(input: Uint8Array, out: Uint8Array): number {
  const n = input.length;
  let op = writePreamble(out, n);
  for (let at = 0; at < n; at += BLOCK_SIZE) {
    const end = Math.min(at + BLOCK_SIZE, n);
    sharedBlock.set(end - at === n ? input : input.subarray(at, end));
    restLeft = 0;
    const size = compressBlock(end - at, 0, true);
    out.set(size <= SMALL_COPY ? stagedPrefix(size) : staged.subarray(0, size), op);
    op += size;
    if (restLeft !== 0) {
      out.set(input.subarray(end - restLeft, end), op);
      op += restLeft;
    }
  }
  return op;
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
export const compress: (input: Uint8Array) => Uint8Array = kernel
  ? compressWithKernel
  : compressWithoutKernel;

function compressWithKernel(given: Uint8Array): Uint8Array {
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
    }
    return scratch.slice(0, compressTo(input, scratch));
  }
  const out = new Uint8Array(max);
  return out.slice(0, compressTo(input, out));
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
  return compressAll(input, outputSpace(input, into, maxCompressedLength(input.length)));
}

function compressWithoutKernel(given: Uint8Array): Uint8Array {
  const input = bytesOf(given);
  const out = new Uint8Array(maxCompressedLength(input.length));
  return out.slice(0, compressPlainTo(input, out));
}

/** plain.ts's compressor behind the preamble, as {@link compressTo} is the kernel's. */
function compressPlainTo(input: Uint8Array, out: Uint8Array): number {
  return compressPlain(input, out, writePreamble(out, input.length));
}

// The checked decoder: drives the kernel's fast path (kernel.wat: fastPath), moves the
// windows, and decodes one element at a time, with every check, whatever the fast path
// leaves: the tail, long literals, copy-4, copies from before the window, anything invalid.
// Throws `CORRUPT_INPUT` naming the kind of corruption, where it is and the numbers involved.
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import {
  corrupt,
  endsShort,
  lengthCut,
  overrun,
  pastDeclared,
  pastInput,
  pastStart,
} from "./errors.js";
import { kernel } from "./kernel.js";
import { moveExact, prefixes, SEPARATE, SMALL_COPY } from "./output.js";
import {
  COPY1_MIN_LENGTH,
  LITERAL_LENGTH_IN_TAG,
  TAG_COPY1,
  TAG_COPY2,
  TAG_LITERAL,
} from "./tags.js";
import { windows } from "./windows.js";

// Constants of this module, for the optimiser to fold in (see windows.ts and tags.ts).
const {
  IN,
  IN_VIEW,
  OUT,
  OUT_VIEW,
  IN_SIZE,
  SPARSE_IN,
  OUT_SIZE,
  KEEP,
  DIRECT,
  LONG_LITERAL,
  SMALL_OUTPUT,
} = windows();
const LITERAL = TAG_LITERAL;
const COPY1 = TAG_COPY1;
const COPY2 = TAG_COPY2;
const LENGTH_IN_TAG = LITERAL_LENGTH_IN_TAG;
const COPY1_MIN = COPY1_MIN_LENGTH;
/**
 * The kernel's fast path and its second result (the output position it stopped at). Only
 * called where the kernel loaded: elsewhere decompress.ts decodes with plain.ts.
 */
const FAST_PATH = kernel ? kernel.fastPath : null;
const FAST_STATE = kernel ? kernel.state : new Int32Array(1);

/** Short output is copied out through a reused `OUT.subarray(0, n)` (see prefixes). */
const outPrefix = prefixes(OUT);

/** Copy `OUT[from..to)` to `dest` at output position `outBase + from`. */
function flush(dest: Uint8Array, outBase: number, from: number, to: number): void {
  if (to > from) dest.set(OUT.subarray(from, to), outBase + from);
}

/**
 * Decode the elements of `input[pos..)` into `dest[0..outEnd)`, `outEnd` being exactly the
 * declared length, through the windows `IN` and `OUT`. With `dest` null (only for
 * `outEnd <= SMALL_OUTPUT`) the output stays in `OUT[0..outEnd)`. Throws `CORRUPT_INPUT`
 * naming the element at fault and the numbers involved.
 *
 * Where there is room the kernel over-copies (up to 64 bytes from a short element's start,
 * up to 15 past a longer one) inside the window and below
 * `outEnd` only: the next element overwrites those bytes, only `OUT[0..op)` is ever copied
 * out, and a stream that ends early is rejected, so no over-copied byte is ever returned,
 * and nothing at or past `outEnd` is ever written.
 */
export function decodeBody(
  input: Uint8Array,
  pos: number,
  dest: Uint8Array | null,
  outEnd: number,
): void {
  // Module constants through locals, read once (see windows.ts).
  const src = IN_VIEW;
  const srcBytes = IN;
  const out = OUT;
  const outView = OUT_VIEW;
  const n = input.length;
  const sparse = n > outEnd - (outEnd >>> 3);
  // A small output's literals never go direct: its input is copied in whole, dense or not.
  const small = outEnd <= SMALL_OUTPUT;
  const fill = sparse && !small ? SPARSE_IN : IN_SIZE;
  let inBase = 0;
  let end = Math.min(n, fill);
  srcBytes.set(n === end ? input : input.subarray(0, end));
  let outBase = 0;
  let op = 0;
  let flushed = 0;
  let outLimit = Math.min(outEnd, OUT_SIZE);
  // libsnappy's fast path (fastPath): while a tag with 16 input bytes after it and 72 output
  // bytes remain, a literal of up to 60 bytes or any copy (≤ 64 bytes, plus 7 of over-copy)
  // fits without a length check, so the common elements run with only the checks the data
  // needs (a literal against the input end, a copy's offset). Anything else, and the tail,
  // goes through the fully checked code below one element at a time.
  let fastEnd = end - 17;
  // A small output (at most SMALL_OUTPUT bytes: the window never moves, and a literal goes
  // direct only as the whole output) has the window's room, so the fast path runs to its
  // end, not 72 bytes short: a gossip message's last elements otherwise took the checked
  // code one by one. An element that overruns the declared length then ends past it, inside
  // the window, and is rejected as soon as the fast path returns.
  let fastOutEnd = small ? outEnd - 1 : outLimit - 72;
  for (;;) {
    if (pos <= fastEnd && op <= fastOutEnd) {
      pos = FAST_PATH!(pos, op, fastEnd, fastOutEnd);
      op = FAST_STATE[0]!;
      if (op > outEnd) throw overrun(outEnd, op, inBase + pos);
    }
    // The windows move on here only. The input window when fewer than 17 bytes are left in
    // it (or a long literal read past it) and more input follows: then every element below
    // either has its tag and length bytes in the window or the window reaches the input's end.
    if (end - pos < 17 && inBase + end < n) {
      inBase += pos;
      end = Math.min(fill, n - inBase);
      srcBytes.set(input.subarray(inBase, inBase + end));
      pos = 0;
      fastEnd = end - 17;
    }
    // The output window when it has less than a direct literal's worth of room left and more
    // output follows (outLimit is then OUT_SIZE, so op > KEEP): flushed, its last KEEP bytes
    // kept. Then every element below fits in the window or overruns the declared length.
    if (outLimit - op < DIRECT && outBase + outLimit < outEnd) {
      flush(dest!, outBase, flushed, op);
      out.copyWithin(0, op - KEEP, op);
      outBase += op - KEEP;
      op = KEEP;
      flushed = KEEP;
      outLimit = Math.min(OUT_SIZE, outEnd - outBase);
      fastOutEnd = outLimit - 72;
    }
    if (pos >= end) break;
    // One element with every check: what the fast path leaves (the tail, literals with 3- or
    // 4-byte lengths, long literals, copy-4, copies from before the window, anything
    // invalid). Positions in messages are the stream's and the output's, not the windows'.
    const tagAt = inBase + pos;
    const at = outBase + op;
    const tag = srcBytes[pos++]!;
    const type = tag & 3;
    if (type === LITERAL) {
      // §2.1 Literals: length-1 in the tag's upper six bits, or for 60..63 in the next 1..4
      // little-endian bytes.
      let length = tag >>> 2;
      if (length >= LENGTH_IN_TAG) {
        const extra = length - LENGTH_IN_TAG + 1;
        if (extra > end - pos) throw lengthCut(extra, end - pos, tagAt);
        length = srcBytes[pos]!;
        if (extra > 1) length |= srcBytes[pos + 1]! << 8;
        if (extra > 2) length |= srcBytes[pos + 2]! << 16;
        // Kept a signed 32-bit integer (so the optimiser keeps every position an integer); a
        // 4-byte length of 2^31 or more comes out negative and is rejected below.
        if (extra > 3) length |= srcBytes[pos + 3]! << 24;
        pos += extra;
        if (length < 0) {
          throw pastInput((length >>> 0) + 1, n - inBase - pos, at, tagAt);
        }
      }
      length += 1;
      const from = inBase + pos;
      if (length > n - from) {
        throw pastInput(length, n - from, at, tagAt);
      }
      if (length > outEnd - at) {
        throw pastDeclared("literal", length, at, outEnd, tagAt);
      }
      if (dest !== null && length >= DIRECT && (sparse || length > outLimit - op)) {
        // Straight to the destination; the window restarts empty after it. Without one (a
        // small output, which may itself be one DIRECT-byte literal) it stays in the window.
        flush(dest!, outBase, flushed, op);
        dest!.set(input.subarray(from, from + length), at);
        outBase = at + length;
        op = 0;
        flushed = 0;
        outLimit = Math.min(OUT_SIZE, outEnd - outBase);
        fastOutEnd = outLimit - 72;
      } else if (length > end - pos) {
        // Past the input window: from the input itself.
        out.set(input.subarray(from, from + length), op);
        op += length;
      } else if (length >= LONG_LITERAL) {
        out.set(srcBytes.subarray(pos, pos + length), op);
        op += length;
      } else {
        op = moveExact(src, srcBytes, pos, out, outView, op, length, SEPARATE);
      }
      pos += length;
      continue;
    }

    let length: number;
    let offset: number;
    if (type === COPY1) {
      // §2.2.1 Copy with 1-byte offset: length 4..11 in bits 2..4, offset's top 3 bits in 5..7.
      if (pos >= end) throw corrupt("truncated", "copy-1 tag is missing its offset byte", tagAt);
      length = COPY1_MIN + ((tag >>> 2) & 7);
      offset = ((tag >>> 5) << 8) | srcBytes[pos]!;
      pos += 1;
    } else if (type === COPY2) {
      // §2.2.2 Copy with 2-byte offset: length 1..64 in the upper six bits, offset LE16.
      if (end - pos < 2) throw corrupt("truncated", "copy-2 tag is missing offset bytes", tagAt);
      length = (tag >>> 2) + 1;
      offset = srcBytes[pos]! | (srcBytes[pos + 1]! << 8);
      pos += 2;
    } else {
      // §2.2.3 Copy with 4-byte offset: as above with an LE32 offset; signed 32-bit, as
      // above, so an offset of 2^31 or more comes out negative.
      if (end - pos < 4) throw corrupt("truncated", "copy-4 tag is missing offset bytes", tagAt);
      length = (tag >>> 2) + 1;
      offset = src.getInt32(pos, true);
      pos += 4;
    }
    // §2.2: "the offset ... is an offset backwards from the current position"; 0 is invalid
    // and it may not reach before the start of the output.
    if (offset === 0) throw corrupt("offset-zero", "copy with offset 0", tagAt, { produced: at });
    if (offset > at || offset < 0) {
      throw pastStart(offset >>> 0, at, tagAt);
    }
    if (length > outEnd - at) {
      throw pastDeclared("copy", length, at, outEnd, tagAt);
    }
    if (offset > op) {
      // From before the window, which restarted after a direct literal (or moved on, or the
      // offset is past KEEP): dest is not null, and holds every byte before the window. The
      // window takes back up to KEEP bytes of them, once per restart.
      const back = Math.min(outBase, KEEP - op);
      if (offset <= op + back) {
        out.copyWithin(back, 0, op);
        out.set(dest!.subarray(outBase - back, outBase));
        outBase -= back;
        op += back;
        flushed += back;
        outLimit = Math.min(OUT_SIZE, outEnd - outBase);
        fastOutEnd = outLimit - 72;
      } else {
        // Further back than KEEP (copy-4): byte by byte, from dest before the window and from
        // the window after (also the bytes this copy writes, when it overlaps itself).
        const stop = op + length;
        for (let s = at - offset; op < stop; s++) {
          out[op++] = s < outBase ? dest![s]! : out[s - outBase]!;
        }
        continue;
      }
    }
    // §2.2 overlap: moveExact moves only as many bytes at once as the offset allows.
    op = moveExact(outView, out, op - offset, out, outView, op, length, offset);
  }
  if (outBase + op !== outEnd) {
    throw endsShort(outBase + op, outEnd, n);
  }
  if (dest === null) return;
  if (op <= SMALL_COPY && outBase === 0) dest.set(outPrefix(op));
  else flush(dest, outBase, flushed, op);
}

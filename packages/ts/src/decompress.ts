// Strict block decompressor: every tag, length and offset is checked before it is used, the
// output is allocated once at the declared length (after core's limit and expansion checks),
// and a stream that produces anything but exactly that length is rejected.
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import {
  assertOutputSpace,
  checkUncompressedLength,
  encodeVarint,
  SnappyError,
  type UncompressOptions,
} from "@snappykit/core";
import { moveExact, SEPARATE } from "./output.js";

/** Literals at least this long use `set` (one call); shorter ones 8- or 4-byte moves. */
export const LONG_LITERAL = 256;

// The decoder reads and writes only through two module constants, an input window `IN` and
// an output window `OUT`, each with a `DataView` made once. The optimiser folds a constant
// view in: no map check, a constant length, and no reload of either after each store, which
// it repeats for a view passed in (`--print-opt-code`: ~11 instructions around every 4-byte
// move instead of ~4). Against decoding through views of the caller's arrays,
// `uncompressInto` ÷ napi went from 1.35 to 1.01 on beacon-block and from 2.18 to 1.38 on
// json-log (package README). The price: the output is copied out of `OUT` at the end (one
// `set`), and the input into `IN`.

/**
 * Input window: `IN[0..end)` holds `input[inBase..inBase + end)`. An input up to this size is
 * copied in whole; a longer one a window at a time, refilled when fewer than 17 bytes are
 * left in it.
 */
const IN_SIZE = 32 * 1024;

/**
 * The input window of a mostly incompressible stream (compressed to more than 7/8 of its
 * length): its literals are read from the input itself, so a smaller window copies less of
 * them in vain.
 */
export const SPARSE_IN = 4096;
const IN = new Uint8Array(IN_SIZE);
const IN_VIEW = new DataView(IN.buffer);

/**
 * Output window: `OUT[0..op)` holds output bytes `outBase..outBase + op`, of which
 * `OUT[0..flushed)` are already in the destination array too. Output up to this size is
 * decoded here in whole and copied out at the end. Longer output is flushed when the window
 * is full, keeping its last {@link KEEP} bytes for the copies that follow.
 */
const OUT_SIZE = 256 * 1024;
const OUT = new Uint8Array(OUT_SIZE);
const OUT_VIEW = new DataView(OUT.buffer);

/**
 * Output kept in the window when it moves on: the longest offset libsnappy writes (its
 * fragments are 64 KiB). A copy from further back (copy-4) reads the destination array.
 */
const KEEP = 64 * 1024;

/**
 * In a mostly incompressible stream, literals at least this long go from the input straight
 * to the destination array, one copy as before the windows, and the window restarts empty
 * after them (a later copy from before it reads the destination). In other streams copies
 * from them are likely, so they go through the window (unless longer than its room). With
 * `OUT_SIZE >= KEEP + DIRECT` a full window always holds `KEEP` bytes to keep.
 */
export const DIRECT = 4096;

/**
 * Results up to this size are decoded without a destination array (no literal goes direct,
 * the window never moves) and copied out of `OUT` with one `slice`.
 */
export const SMALL_OUTPUT = 4096;

/**
 * Node's `Buffer.allocUnsafeSlow`, where there is one: a buffer of its own that is not
 * zero-filled first (measured: ~1 µs less per 64 KiB result). Safe here because the decoder
 * writes every byte of the declared length before a result is returned, and a failed decode
 * returns nothing. Elsewhere (browsers) results are zero-filled `Uint8Array`s.
 */
const nodeBuffer = (globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } })
  .Buffer;

/** A `Uint8Array` of exactly `length` bytes on a buffer of its own. */
function allocate(length: number): Uint8Array {
  return nodeBuffer
    ? new Uint8Array(nodeBuffer.allocUnsafeSlow(length).buffer, 0, length)
    : new Uint8Array(length);
}

/**
 * For each copy-1 and copy-2 tag (§2.2.1, §2.2.2): the copy's length in bits 0–6, copy-1's
 * top three offset bits (in place: bits 8–10), bit 12 set for copy-2 (one more offset byte),
 * and from bit 16 the mask of the offset bytes that follow the tag (0xff or 0xffff). Zero for
 * the other tags (literals, copy-4).
 */
const COPY_TABLE = new Int32Array(256);
for (let tag = 0; tag < 256; tag++) {
  if ((tag & 3) === 1) {
    COPY_TABLE[tag] = (0xff << 16) | ((tag >>> 5) << 8) | (4 + ((tag >>> 2) & 7));
  } else if ((tag & 3) === 2) {
    COPY_TABLE[tag] = (0xffff << 16) | (1 << 12) | ((tag >>> 2) + 1);
  }
}

function corrupt(message: string, tagAt: number): SnappyError {
  return new SnappyError("CORRUPT_INPUT", `${message} (tag at byte ${tagAt})`);
}

/**
 * Short output copied out through a reused `OUT.subarray(0, n)`, one per length: a gossip
 * message's `uncompressInto` spends ~19 ns less than making the subarray each time (35 ns).
 * At most SMALL_COPY + 1 of them.
 */
const SMALL_COPY = 1024;
// Sized up front: an array written at scattered indexes could turn into a slow dictionary.
const outPrefixes: (Uint8Array | undefined)[] = new Array(SMALL_COPY + 1).fill(undefined);
function outPrefix(n: number): Uint8Array {
  let prefix = outPrefixes[n];
  if (prefix === undefined) prefix = outPrefixes[n] = OUT.subarray(0, n);
  return prefix;
}

/** Copy `OUT[from..to)` to `dest` at output position `outBase + from`. */
function flush(dest: Uint8Array, outBase: number, from: number, to: number): void {
  if (to > from) dest.set(OUT.subarray(from, to), outBase + from);
}

/**
 * The fast path (libsnappy's): from `IN[pos..]` into `OUT[op..]` while a tag with 16 input
 * bytes after it and 72 bytes of window room remain (`pos <= fastEnd`, `op <= fastOutEnd`),
 * the common elements with only the checks the data needs. Returns the input position of the
 * first element it leaves to the checked code (or past the limits), and the output position
 * in {@link fastOp}.
 *
 * A function of its own, called once per run of fast elements: the checked code's rare
 * branches, first taken with the decoder already optimised, deoptimise it; a process then
 * often kept running the loop's on-stack-replacement code, in which the window constants are
 * not folded in (text, json-log and blocks-by-range 1.3–1.9× slower in about four processes
 * of five). This function has no branch the load-time warm-up below does not take: a branch
 * added here needs an element in `warmUp`'s stream that takes it.
 */
function fastPath(pos: number, op: number, fastEnd: number, fastOutEnd: number): number {
  const end = (fastEnd + 17) | 0;
  const outLimit = (fastOutEnd + 72) | 0;
  // Module constants through locals: each module-variable read in the loop is a load chain
  // the optimiser repeats at every use (measured: 45 % slower); read once here they are folded in.
  const src = IN_VIEW;
  const srcBytes = IN;
  const out = OUT;
  const outView = OUT_VIEW;
  const copyTable = COPY_TABLE;
  // Positions below use `(a + b) | 0`: they stay far below 2^31, and the truncation tells the
  // optimiser so, which drops an overflow check (compare and branch) from every add
  // (measured: text-256k uncompressInto −8 %, json-log-256k −9 %, CPU p50).
  while (pos <= fastEnd && op <= fastOutEnd) {
    // The tag and the three bytes after it in one load: a copy's offset is among them.
    const word = src.getInt32(pos, true);
    const tag = word & 0xff;
    const type = tag & 3;
    if (type === 0) {
      let length = (tag >>> 2) + 1;
      // Literals ≤ 8 and ≤ 16 bytes (most): 8 bytes as two 4-byte moves, then 8 more (the
      // fast path leaves 16 input bytes after the tag). Measured against 16 bytes for every
      // literal ≤ 16: that costs short literals (html, json-log) 4–7 % more than the saved
      // branch gains. Integer moves only: engines may quiet a signalling NaN's bits in
      // float64 moves (Chromium 156's optimised code did).
      outView.setInt32(op, src.getInt32((pos + 1) | 0, true), true);
      outView.setInt32((op + 4) | 0, src.getInt32((pos + 5) | 0, true), true);
      if (length <= 8) {
        pos = (pos + length + 1) | 0;
        op = (op + length) | 0;
        continue;
      }
      outView.setInt32((op + 8) | 0, src.getInt32((pos + 9) | 0, true), true);
      outView.setInt32((op + 12) | 0, src.getInt32((pos + 13) | 0, true), true);
      if (length <= 16) {
        pos = (pos + length + 1) | 0;
        op = (op + length) | 0;
        continue;
      }
      // Longer literals: the bytes start right after the tag, and the first 16 are done.
      let from = pos + 1;
      let done = 16;
      if (length > 60) {
        // 61–64: the length-1 is in the next 1–4 bytes (§2.1). Up to 2 here (a literal
        // below 64 KiB, all libsnappy writes); longer ones go to the checked code.
        if (length > 62) break;
        from = (pos + length - 59) | 0;
        length = (length === 61 ? srcBytes[(pos + 1) | 0]! : src.getUint16(pos + 1, true)) + 1;
        done = 0;
        // Room in the window, with 7 bytes to spare for the 8-byte steps below.
        if (length + 7 > outLimit - op) break;
        if (length >= LONG_LITERAL) {
          // All in the input window, and not one for the destination directly.
          if (length > end - from || length >= DIRECT) break;
          out.set(srcBytes.subarray(from, from + length), op);
          pos = from + length;
          op = (op + length) | 0;
          continue;
        }
      }
      // All of it, and 7 more bytes for the 8-byte steps, must be in the input window;
      // otherwise the checked code below takes it.
      if (length + 7 > end - from) break;
      pos = (from + length) | 0;
      const stop = (op + length) | 0;
      op = (op + done) | 0;
      from = (from + done) | 0;
      // Two 4-byte moves per step, as in the copies below (integer moves only, see above).
      do {
        outView.setInt32(op, src.getInt32(from, true), true);
        outView.setInt32((op + 4) | 0, src.getInt32((from + 4) | 0, true), true);
        op = (op + 8) | 0;
        from = (from + 8) | 0;
      } while (op < stop);
      op = stop;
      continue;
    }
    // Copy-1 and copy-2 without a branch between them: one table entry gives the length,
    // the offset's bytes after the tag (masked out of `word`) and copy-1's top offset
    // bits. Copy-4 (libsnappy never writes it) has entry 0, so offset 0: the check below
    // sends it to the checked code.
    const entry = copyTable[tag]!;
    const offset = ((word >>> 8) & (entry >>> 16)) | (entry & 0x700);
    // Offset 0, or one before the window's start (one unsigned compare for both): the
    // checked code below reports it or reads further back.
    if ((offset - 1) >>> 0 >= op) break;
    pos = (pos + (2 + ((entry >>> 12) & 1))) | 0;
    const length = entry & 0x7f;
    let from = (op - offset) | 0;
    const stop = (op + length) | 0;
    // Copies from 8 or more bytes back first (most of them: one compare): 16 bytes whatever
    // the length (most copies are ≤ 16), then the rest 8 at a time.
    if (offset >= 8) {
      outView.setInt32(op, outView.getInt32(from, true), true);
      outView.setInt32((op + 4) | 0, outView.getInt32((from + 4) | 0, true), true);
      outView.setInt32((op + 8) | 0, outView.getInt32((from + 8) | 0, true), true);
      outView.setInt32((op + 12) | 0, outView.getInt32((from + 12) | 0, true), true);
      if (length <= 16) {
        op = stop;
        continue;
      }
      op = (op + 16) | 0;
      from = (from + 16) | 0;
      do {
        outView.setInt32(op, outView.getInt32(from, true), true);
        outView.setInt32((op + 4) | 0, outView.getInt32((from + 4) | 0, true), true);
        op = (op + 8) | 0;
        from = (from + 8) | 0;
      } while (op < stop);
      op = stop;
      continue;
    }
    // §2.2 lets a copy overlap its own output (offset < length: the last `offset` bytes
    // repeat). A 4-byte move is exact when the distance is ≥ 4: every byte it reads was
    // written before.
    if (offset < 4) {
      if (offset < 3) {
        // Offsets 1 and 2 (runs of one byte, e.g. SSZ's zero padding, or of a byte pair):
        // four bytes of the pattern, built once, then only stores, none of which waits on
        // a load of what the one before it wrote.
        const pattern =
          offset === 1
            ? Math.imul(out[from]!, 0x01010101)
            : Math.imul(out[from]! | (out[(from + 1) | 0]! << 8), 0x10001);
        do {
          outView.setInt32(op, pattern, true);
          outView.setInt32((op + 4) | 0, pattern, true);
          op = (op + 8) | 0;
        } while (op < stop);
        op = stop;
        continue;
      }
      // Offset 3: four single-byte moves lay down the pattern; the output from
      // `op - 3` on is periodic, so reading 6 bytes back gives the same bytes and the
      // 4-byte moves can continue from there.
      out[op] = out[from]!;
      out[(op + 1) | 0] = out[(from + 1) | 0]!;
      out[(op + 2) | 0] = out[(from + 2) | 0]!;
      out[(op + 3) | 0] = out[(from + 3) | 0]!;
      op = (op + 4) | 0;
      from = (op - 6) | 0;
    }
    // Most copies are ≤ 8 bytes: two moves, then a loop only for longer ones.
    outView.setInt32(op, outView.getInt32(from, true), true);
    outView.setInt32((op + 4) | 0, outView.getInt32((from + 4) | 0, true), true);
    op = (op + 8) | 0;
    from = (from + 8) | 0;
    while (op < stop) {
      outView.setInt32(op, outView.getInt32(from, true), true);
      outView.setInt32((op + 4) | 0, outView.getInt32((from + 4) | 0, true), true);
      op = (op + 8) | 0;
      from = (from + 8) | 0;
    }
    op = stop;
  }
  fastOp = op;
  return pos;
}

/** The output position {@link fastPath} stopped at (its second result). */
let fastOp = 0;

/**
 * Decode the elements of `input[pos..)` into `dest[0..outEnd)`, `outEnd` being exactly the
 * declared length, through the windows `IN` and `OUT`. With `dest` null (only for
 * `outEnd <= SMALL_OUTPUT`) the output stays in `OUT[0..outEnd)`. Throws `CORRUPT_INPUT`
 * naming the element at fault and the numbers involved.
 *
 * Where there is room it over-copies (up to 16 bytes for a short element, up to 7 past a
 * longer one) inside the window and below `outEnd` only: the next element overwrites those
 * bytes, only `OUT[0..op)` is ever copied out, and a stream that ends early is rejected, so
 * no over-copied byte is ever returned, and nothing at or past `outEnd` is ever written.
 */
function decodeBody(input: Uint8Array, pos: number, dest: Uint8Array | null, outEnd: number): void {
  // Module constants through locals, read once (see fastPath).
  const src = IN_VIEW;
  const srcBytes = IN;
  const out = OUT;
  const outView = OUT_VIEW;
  const n = input.length;
  const sparse = n > outEnd - (outEnd >>> 3);
  const fill = sparse ? SPARSE_IN : IN_SIZE;
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
  let fastOutEnd = outLimit - 72;
  for (;;) {
    if (pos <= fastEnd && op <= fastOutEnd) {
      pos = fastPath(pos, op, fastEnd, fastOutEnd);
      op = fastOp;
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
    if (type === 0) {
      // §2.1 Literals: length-1 in the tag's upper six bits, or for 60..63 in the next 1..4
      // little-endian bytes.
      let length = tag >>> 2;
      if (length >= 60) {
        const extra = length - 59;
        if (extra > end - pos) {
          throw corrupt(`literal length needs ${extra} bytes, only ${end - pos} remain`, tagAt);
        }
        length = srcBytes[pos]!;
        if (extra > 1) length |= srcBytes[pos + 1]! << 8;
        if (extra > 2) length |= srcBytes[pos + 2]! << 16;
        // Kept a signed 32-bit integer (so the optimiser keeps every position an integer); a
        // 4-byte length of 2^31 or more comes out negative and is rejected below.
        if (extra > 3) length |= srcBytes[pos + 3]! << 24;
        pos += extra;
        if (length < 0) {
          throw corrupt(
            `literal of ${(length >>> 0) + 1} bytes runs past the end of the input (${n - inBase - pos} remain)`,
            tagAt,
          );
        }
      }
      length += 1;
      const from = inBase + pos;
      if (length > n - from) {
        throw corrupt(
          `literal of ${length} bytes runs past the end of the input (${n - from} remain)`,
          tagAt,
        );
      }
      if (length > outEnd - at) {
        throw corrupt(
          `literal of ${length} bytes at output ${at} overruns the declared ${outEnd}`,
          tagAt,
        );
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
    if (type === 1) {
      // §2.2.1 Copy with 1-byte offset: length 4..11 in bits 2..4, offset's top 3 bits in 5..7.
      if (pos >= end) throw corrupt("copy-1 tag is missing its offset byte", tagAt);
      length = 4 + ((tag >>> 2) & 7);
      offset = ((tag >>> 5) << 8) | srcBytes[pos]!;
      pos += 1;
    } else if (type === 2) {
      // §2.2.2 Copy with 2-byte offset: length 1..64 in the upper six bits, offset LE16.
      if (end - pos < 2) throw corrupt("copy-2 tag is missing offset bytes", tagAt);
      length = (tag >>> 2) + 1;
      offset = srcBytes[pos]! | (srcBytes[pos + 1]! << 8);
      pos += 2;
    } else {
      // §2.2.3 Copy with 4-byte offset: as above with an LE32 offset; signed 32-bit, as
      // above, so an offset of 2^31 or more comes out negative.
      if (end - pos < 4) throw corrupt("copy-4 tag is missing offset bytes", tagAt);
      length = (tag >>> 2) + 1;
      offset = src.getInt32(pos, true);
      pos += 4;
    }
    // §2.2: "the offset ... is an offset backwards from the current position"; 0 is invalid
    // and it may not reach before the start of the output.
    if (offset === 0) throw corrupt("copy with offset 0", tagAt);
    if (offset > at || offset < 0) {
      throw corrupt(`copy offset ${offset >>> 0} reaches before the ${at} bytes produced`, tagAt);
    }
    if (length > outEnd - at) {
      throw corrupt(
        `copy of ${length} bytes at output ${at} overruns the declared ${outEnd}`,
        tagAt,
      );
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
    throw new SnappyError(
      "CORRUPT_INPUT",
      `stream produces ${outBase + op} bytes, but its preamble declares ${outEnd}`,
    );
  }
  if (dest === null) return;
  if (op <= SMALL_COPY && outBase === 0) dest.set(outPrefix(op));
  else flush(dest, outBase, flushed, op);
}

/**
 * Decompress a Snappy raw stream.
 *
 * Before allocating, the declared length is checked against `maxLength` and against the
 * most the body could expand to (a 3-byte copy yields at most 64 bytes), so a hostile
 * preamble cannot make it allocate. Every element is then validated while decoding.
 *
 * The result owns its memory: a `Uint8Array` of exactly the declared length at `byteOffset`
 * 0 of a buffer of its own.
 *
 * @throws SnappyError `CORRUPT_INPUT` for any invalid stream (bad preamble, truncated tag,
 * literal past the input, offset 0 or before the output start, a total other than the
 * declared length); `LENGTH_LIMIT` when the declared length exceeds `maxLength`;
 * `INVALID_ARGUMENT` when `input` is not a `Uint8Array`.
 */
export function uncompress(input: Uint8Array, options?: UncompressOptions): Uint8Array {
  const { length, headerSize } = checkUncompressedLength(input, options);
  if (length <= SMALL_OUTPUT) {
    // Left in the window and copied out: one call allocates and copies.
    decodeBody(input, headerSize, null, length);
    return OUT.slice(0, length);
  }
  const out = allocate(length);
  decodeBody(input, headerSize, out, length);
  return out;
}

/**
 * The uncompressed length `input` declares, checked as {@link uncompress} checks it before
 * allocating (well-formed preamble, at most `maxLength`, at most what the body can expand to).
 * Reads the preamble only.
 */
export function uncompressedLength(input: Uint8Array, options?: UncompressOptions): number {
  return checkUncompressedLength(input, options).length;
}

/**
 * Decompress `input` into `output[0..n)` and return `n`, the declared length. The same
 * checks as {@link uncompress}; nothing at or past `n` is written. After a `CORRUPT_INPUT`,
 * `output[0..n)` may hold partial output.
 *
 * @throws SnappyError `OUTPUT_TOO_SMALL` (before writing) when `output` is shorter than the
 * declared length; `INVALID_ARGUMENT` when `output` is not a `Uint8Array` or overlaps
 * `input`; otherwise as {@link uncompress}.
 */
export function uncompressInto(
  input: Uint8Array,
  output: Uint8Array,
  options?: UncompressOptions,
): number {
  const { length, headerSize } = checkUncompressedLength(input, options);
  assertOutputSpace(input, output, length);
  decodeBody(input, headerSize, output, length);
  return length;
}

/**
 * Runs every branch of {@link fastPath} at load (literals of each length class, copies at
 * offsets 1, 2, 3, 4–7 and ≥ 8, short and long; then a few checked elements), so the
 * optimiser has type feedback for all of them: a branch the first hot data never took
 * (offset 2 or 3 in a beacon block, say) would otherwise deoptimise it on first use. Costs
 * one decode of a 1 KiB stream, five times, in the interpreter.
 */
function warmUp(): void {
  const element: number[] = [];
  const literal = (n: number) => {
    const m = n - 1;
    element.push(...(n <= 60 ? [m << 2] : n <= 256 ? [60 << 2, m] : [61 << 2, m & 0xff, m >>> 8]));
    for (let i = 0; i < n; i++) element.push((i * 37 + n) & 0xff);
    return n;
  };
  const copy = (length: number, offset: number) => {
    element.push(((length - 1) << 2) | 2, offset & 0xff, offset >>> 8);
    return length;
  };
  let n = 0;
  for (const size of [1, 5, 12, 40, 100, 300]) n += literal(size);
  for (const offset of [1, 2, 3, 5, 10, 40, 300]) n += copy(8, offset) + copy(20, offset);
  n += copy(64, 100) + literal(200);
  element.push((3 << 2) | 1, 7); // copy-1: 7 bytes at offset 7
  n += 7;
  element.push((4 << 2) | 3, 9, 0, 0, 0); // copy-4: 5 bytes at offset 9
  n += 5;
  const stream = Uint8Array.from([...encodeVarint(n), ...element]);
  // Several times: the engine only starts collecting feedback some way into a function's
  // first calls.
  const out = new Uint8Array(n);
  for (let round = 0; round < 4; round++) uncompressInto(stream, out);
  uncompress(stream);
}
warmUp();

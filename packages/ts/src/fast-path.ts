// The decoder's fast path (libsnappy's): the common elements with only the checks the data
// needs, from the input window into the output window (windows.ts). The checked decoder
// (checked.ts) drives it, moves the windows and takes everything else.
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import { kernel } from "./kernel.js";
import { copyTable, LITERAL_LENGTH_IN_TAG, TAG_LITERAL } from "./tags.js";
import { windows } from "./windows.js";

// Constants of this module, for the optimiser to fold in (see windows.ts and tags.ts).
const { IN, IN_VIEW, OUT, OUT_VIEW, LONG_LITERAL, DIRECT } = windows();
const COPY_TABLE = copyTable();
const LITERAL = TAG_LITERAL;
const LENGTH_IN_TAG = LITERAL_LENGTH_IN_TAG;
/** The same loop in WebAssembly (kernel.wat), with its second result; null without it. */
const KERNEL_FAST_PATH = kernel ? kernel.fastPath : null;
const KERNEL_STATE = kernel ? kernel.state : new Int32Array(1);

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
 * of five). This function has no branch the load-time warm-up does not take: a branch added
 * here needs an element in `warmUpStream` (decompress.ts) that takes it, and a line in the
 * test of the warm-up's coverage (decompress.test.ts).
 */
export function fastPath(pos: number, op: number, fastEnd: number, fastOutEnd: number): number {
  if (KERNEL_FAST_PATH !== null) {
    // The kernel moves 8 bytes per instruction, without bounds checks (kernel.wat).
    pos = KERNEL_FAST_PATH(pos, op, fastEnd, fastOutEnd);
    fastOp = KERNEL_STATE[0]!;
    return pos;
  }
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
    if (type === LITERAL) {
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
      if (length > LENGTH_IN_TAG) {
        // The length-1 is in the next 1–4 bytes (§2.1). Up to 2 here (a literal below
        // 64 KiB, all libsnappy writes); longer ones go to the checked code.
        const extra = (length - LENGTH_IN_TAG) | 0;
        if (extra > 2) break;
        from = (pos + 1 + extra) | 0;
        length = (extra === 1 ? srcBytes[(pos + 1) | 0]! : src.getUint16(pos + 1, true)) + 1;
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
export let fastOp = 0;

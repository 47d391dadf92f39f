// Strict block decompressor: every tag, length and offset is checked before it is used, the
// output is allocated once at the declared length (after core's limit and expansion checks),
// and a stream that produces anything but exactly that length is rejected.
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import { checkUncompressedLength, SnappyError, type UncompressOptions } from "@snappykit/core";
import { POOLED_MAX, pool, reserve, take } from "./pool.js";

/** Literals at least this long use `set` (one call); shorter ones 4-byte moves. */
const LONG_LITERAL = 256;

/**
 * Inputs up to this size are copied into {@link inputScratch} and read through its `DataView`
 * (made once); larger ones get a `DataView` of their own (one small allocation per call, which
 * only small messages would notice).
 */
const INPUT_SCRATCH = 4096;
const inputScratch = new Uint8Array(INPUT_SCRATCH);
const inputScratchView = new DataView(inputScratch.buffer);

function corrupt(message: string, tagAt: number): SnappyError {
  return new SnappyError("CORRUPT_INPUT", `${message} (tag at byte ${tagAt})`);
}

/**
 * Decode the elements of `src[pos..end)` into `out[start..outEnd)`, which is exactly the
 * declared length. Reads through `src` (a `DataView`), moves 4 or 8 bytes at a time through
 * `outView`. Throws `CORRUPT_INPUT` naming the element at fault and the numbers involved.
 *
 * Where there is room it over-copies (up to 16 bytes for a short literal, up to 7 past a copy)
 * inside `out[start..outEnd)` only: the next element overwrites those bytes, and a stream that
 * ends early is rejected, so no over-copied byte is ever returned.
 */
function decodeBody(
  src: DataView,
  srcBytes: Uint8Array,
  pos: number,
  end: number,
  out: Uint8Array,
  outView: DataView,
  start: number,
  outEnd: number,
): void {
  let op = start;
  while (pos < end) {
    const tagAt = pos;
    const tag = src.getUint8(pos++);
    const type = tag & 3;
    if (type === 0) {
      // §2.1 Literals: length-1 in the tag's upper six bits, or for 60..63 in the next 1..4
      // little-endian bytes.
      let length = tag >>> 2;
      if (length < 16 && pos + 16 <= end && op + 16 <= outEnd) {
        // Fast path for the most common literals (≤ 16 bytes): four 4-byte moves.
        outView.setInt32(op, src.getInt32(pos, true), true);
        outView.setInt32(op + 4, src.getInt32(pos + 4, true), true);
        outView.setInt32(op + 8, src.getInt32(pos + 8, true), true);
        outView.setInt32(op + 12, src.getInt32(pos + 12, true), true);
        pos += length + 1;
        op += length + 1;
        continue;
      }
      if (length >= 60) {
        const extra = length - 59;
        if (extra > end - pos) {
          throw corrupt(`literal length needs ${extra} bytes, only ${end - pos} remain`, tagAt);
        }
        length = src.getUint8(pos);
        if (extra > 1) length |= src.getUint8(pos + 1) << 8;
        if (extra > 2) length |= src.getUint8(pos + 2) << 16;
        // Kept a signed 32-bit integer (so the optimiser keeps every position an integer); a
        // 4-byte length of 2^31 or more comes out negative and is rejected below.
        if (extra > 3) length |= src.getUint8(pos + 3) << 24;
        pos += extra;
        if (length < 0) {
          throw corrupt(
            `literal of ${(length >>> 0) + 1} bytes runs past the end of the input (${end - pos} remain)`,
            tagAt,
          );
        }
      }
      length += 1;
      if (length > end - pos) {
        throw corrupt(
          `literal of ${length} bytes runs past the end of the input (${end - pos} remain)`,
          tagAt,
        );
      }
      if (length > outEnd - op) {
        throw corrupt(
          `literal of ${length} bytes at output ${op - start} overruns the declared ${outEnd - start}`,
          tagAt,
        );
      }
      if (length >= LONG_LITERAL) {
        out.set(srcBytes.subarray(pos, pos + length), op);
        pos += length;
        op += length;
      } else {
        const stop = op + length;
        while (op + 4 <= stop) {
          outView.setInt32(op, src.getInt32(pos, true), true);
          op += 4;
          pos += 4;
        }
        while (op < stop) out[op++] = src.getUint8(pos++);
      }
      continue;
    }

    let length: number;
    let offset: number;
    if (type === 1) {
      // §2.2.1 Copy with 1-byte offset: length 4..11 in bits 2..4, offset's top 3 bits in 5..7.
      if (pos >= end) throw corrupt("copy-1 tag is missing its offset byte", tagAt);
      length = 4 + ((tag >>> 2) & 7);
      offset = ((tag >>> 5) << 8) | src.getUint8(pos);
      pos += 1;
    } else if (type === 2) {
      // §2.2.2 Copy with 2-byte offset: length 1..64 in the upper six bits, offset LE16.
      if (end - pos < 2) throw corrupt("copy-2 tag is missing offset bytes", tagAt);
      length = (tag >>> 2) + 1;
      offset = src.getUint16(pos, true);
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
    if (offset > op - start || offset < 0) {
      throw corrupt(
        `copy offset ${offset >>> 0} reaches before the ${op - start} bytes produced`,
        tagAt,
      );
    }
    if (length > outEnd - op) {
      throw corrupt(
        `copy of ${length} bytes at output ${op - start} overruns the declared ${outEnd - start}`,
        tagAt,
      );
    }
    let from = op - offset;
    const stop = op + length;
    // §2.2 lets a copy overlap its own output (offset < length: the last `offset` bytes
    // repeat). Moving w bytes at a time is still exact when offset ≥ w: every byte read was
    // written before the move that reads it.
    if (offset >= 8 && stop + 7 <= outEnd) {
      do {
        outView.setInt32(op, outView.getInt32(from, true), true);
        outView.setInt32(op + 4, outView.getInt32(from + 4, true), true);
        op += 8;
        from += 8;
      } while (op < stop);
      op = stop;
    } else if (offset >= 4 && stop + 3 <= outEnd) {
      do {
        outView.setInt32(op, outView.getInt32(from, true), true);
        op += 4;
        from += 4;
      } while (op < stop);
      op = stop;
    } else if (offset === 1 && length >= 16) {
      out.fill(out[from]!, op, stop);
      op = stop;
    } else {
      while (op < stop) out[op++] = out[from++]!;
    }
  }
  if (op !== outEnd) {
    throw new SnappyError(
      "CORRUPT_INPUT",
      `stream produces ${op - start} bytes, but its preamble declares ${outEnd - start}`,
    );
  }
}

/**
 * Decompress a Snappy raw stream.
 *
 * Before allocating, the declared length is checked against `maxLength` and against the
 * most the body could expand to (a 3-byte copy yields at most 64 bytes), so a hostile
 * preamble cannot make it allocate. Every element is then validated while decoding.
 *
 * @throws SnappyError `CORRUPT_INPUT` for any invalid stream (bad preamble, truncated tag,
 * literal past the input, offset 0 or before the output start, a total other than the
 * declared length); `LENGTH_LIMIT` when the declared length exceeds `maxLength`;
 * `INVALID_ARGUMENT` when `input` is not a `Uint8Array`.
 */
export function uncompress(input: Uint8Array, options?: UncompressOptions): Uint8Array {
  const { length, headerSize } = checkUncompressedLength(input, options);
  const n = input.length;
  let src: DataView;
  let srcBytes: Uint8Array;
  if (n <= INPUT_SCRATCH) {
    inputScratch.set(input);
    src = inputScratchView;
    srcBytes = inputScratch;
  } else {
    src = new DataView(input.buffer, input.byteOffset, n);
    srcBytes = input;
  }
  if (length <= POOLED_MAX) {
    const start = reserve(length);
    decodeBody(src, srcBytes, headerSize, n, pool.bytes, pool.view, start, start + length);
    return take(start, start + length);
  }
  const out = new Uint8Array(length);
  decodeBody(src, srcBytes, headerSize, n, out, new DataView(out.buffer), 0, length);
  return out;
}

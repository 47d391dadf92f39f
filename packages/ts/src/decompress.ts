// Strict block decompressor: every tag, length and offset is checked before it is used, the
// output is allocated once at the declared length (after core's limit and expansion checks),
// and a stream that produces anything but exactly that length is rejected.
//
// Format clauses cited below are from google/snappy format_description.txt:
// https://github.com/google/snappy/blob/main/format_description.txt

import { checkUncompressedLength, SnappyError, type UncompressOptions } from "@snappykit/core";

/** Copies at least this long, not overlapping their source, use `copyWithin` (one call). */
const LONG_COPY = 32;

/** Literals at least this long use `set` (one call); shorter ones a byte loop. */
const LONG_LITERAL = 32;

function corrupt(message: string, tagAt: number): SnappyError {
  return new SnappyError("CORRUPT_INPUT", `${message} (tag at byte ${tagAt})`);
}

/**
 * Decode the elements of `input[pos..]` into `out`, which has exactly the declared length.
 * Throws `CORRUPT_INPUT` naming the element at fault and the numbers involved.
 */
function decodeBody(input: Uint8Array, pos: number, out: Uint8Array): void {
  const end = input.length;
  const outLength = out.length;
  let op = 0;
  while (pos < end) {
    const tagAt = pos;
    const tag = input[pos++]!;
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
        length = input[pos]!;
        if (extra > 1) length |= input[pos + 1]! << 8;
        if (extra > 2) length |= input[pos + 2]! << 16;
        // Multiply: a 4-byte length does not fit a signed 32-bit shift.
        if (extra > 3) length += input[pos + 3]! * 0x100_0000;
        pos += extra;
      }
      length += 1;
      if (length > end - pos) {
        throw corrupt(
          `literal of ${length} bytes runs past the end of the input (${end - pos} remain)`,
          tagAt,
        );
      }
      if (length > outLength - op) {
        throw corrupt(
          `literal of ${length} bytes at output ${op} overruns the declared ${outLength}`,
          tagAt,
        );
      }
      if (length < LONG_LITERAL) {
        for (let i = 0; i < length; i++) out[op + i] = input[pos + i]!;
      } else {
        out.set(input.subarray(pos, pos + length), op);
      }
      pos += length;
      op += length;
      continue;
    }

    let length: number;
    let offset: number;
    if (type === 1) {
      // §2.2.1 Copy with 1-byte offset: length 4..11 in bits 2..4, offset's top 3 bits in 5..7.
      if (pos >= end) throw corrupt("copy-1 tag is missing its offset byte", tagAt);
      length = 4 + ((tag >>> 2) & 7);
      offset = ((tag >>> 5) << 8) | input[pos]!;
      pos += 1;
    } else if (type === 2) {
      // §2.2.2 Copy with 2-byte offset: length 1..64 in the upper six bits, offset LE16.
      if (end - pos < 2) throw corrupt("copy-2 tag is missing offset bytes", tagAt);
      length = (tag >>> 2) + 1;
      offset = input[pos]! | (input[pos + 1]! << 8);
      pos += 2;
    } else {
      // §2.2.3 Copy with 4-byte offset: as above with an LE32 offset.
      if (end - pos < 4) throw corrupt("copy-4 tag is missing offset bytes", tagAt);
      length = (tag >>> 2) + 1;
      offset =
        (input[pos]! | (input[pos + 1]! << 8) | (input[pos + 2]! << 16)) +
        input[pos + 3]! * 0x100_0000;
      pos += 4;
    }
    // §2.2: "the offset ... is an offset backwards from the current position"; 0 is invalid
    // and it may not reach before the start of the output.
    if (offset === 0) throw corrupt("copy with offset 0", tagAt);
    if (offset > op) {
      throw corrupt(`copy offset ${offset} reaches before the ${op} bytes produced`, tagAt);
    }
    if (length > outLength - op) {
      throw corrupt(
        `copy of ${length} bytes at output ${op} overruns the declared ${outLength}`,
        tagAt,
      );
    }
    let from = op - offset;
    if (offset >= length && length >= LONG_COPY) {
      out.copyWithin(op, from, from + length);
      op += length;
    } else {
      // Byte by byte: an overlapping copy (offset < length) repeats the last `offset` bytes,
      // as §2.2 requires ("the copy can overlap").
      const stop = op + length;
      while (op < stop) out[op++] = out[from++]!;
    }
  }
  if (op !== outLength) {
    throw new SnappyError(
      "CORRUPT_INPUT",
      `stream produces ${op} bytes, but its preamble declares ${outLength}`,
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
  const out = new Uint8Array(length);
  decodeBody(input, headerSize, out);
  return out;
}

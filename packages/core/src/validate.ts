import type { UncompressOptions } from "./codec.js";
import { SnappyError } from "./errors.js";
import { checkUncompressedLength } from "./limits.js";

function corrupt(message: string, at: number): SnappyError {
  return new SnappyError("CORRUPT_INPUT", `${message} (at byte ${at})`);
}

/**
 * Walk every element of a raw Snappy stream without producing output, and throw
 * `CORRUPT_INPUT` for anything Google's libsnappy would reject: a bad preamble, a tag or
 * literal running past the input, a copy with offset 0 or reaching before the start of the
 * output, or a total that differs from the preamble. Also runs
 * {@link checkUncompressedLength}. Returns the declared length.
 *
 * Costs one pass over the tags (not the literal bytes), so adapters whose backend trusts
 * its input (zero-fills, reads stale memory, hangs) can run it first and then let any
 * correct decoder loose on a stream known to be valid.
 *
 * Element encodings: format_description.txt §2.1 (literals), §2.2 (copies).
 */
export function validateCompressed(input: Uint8Array, options?: UncompressOptions): number {
  const { length: declared, headerSize } = checkUncompressedLength(input, options);
  const end = input.length;
  let pos = headerSize;
  let produced = 0;
  while (pos < end) {
    const start = pos;
    const tag = input[pos++]!;
    let length: number;
    if ((tag & 3) === 0) {
      length = tag >>> 2;
      if (length >= 60) {
        const extra = length - 59;
        if (pos + extra > end) throw corrupt("truncated literal length", start);
        length = 0;
        for (let i = extra - 1; i >= 0; i--) length = length * 256 + input[pos + i]!;
        pos += extra;
      }
      length += 1;
      if (length > end - pos) {
        throw corrupt(`literal of ${length} bytes runs past the end of the input`, start);
      }
      pos += length;
    } else {
      let offset: number;
      if ((tag & 3) === 1) {
        if (pos + 1 > end) throw corrupt("truncated copy tag", start);
        length = 4 + ((tag >>> 2) & 7);
        offset = ((tag >>> 5) << 8) | input[pos]!;
        pos += 1;
      } else if ((tag & 3) === 2) {
        if (pos + 2 > end) throw corrupt("truncated copy tag", start);
        length = (tag >>> 2) + 1;
        offset = input[pos]! | (input[pos + 1]! << 8);
        pos += 2;
      } else {
        if (pos + 4 > end) throw corrupt("truncated copy tag", start);
        length = (tag >>> 2) + 1;
        offset =
          (input[pos]! | (input[pos + 1]! << 8) | (input[pos + 2]! << 16)) +
          input[pos + 3]! * 0x100_0000;
        pos += 4;
      }
      if (offset === 0) throw corrupt("copy with offset 0", start);
      if (offset > produced) {
        throw corrupt(`copy offset ${offset} reaches before the ${produced} bytes produced`, start);
      }
    }
    produced += length;
    if (produced > declared) {
      throw corrupt(`stream produces more than the ${declared} bytes it declares`, start);
    }
  }
  if (produced !== declared) {
    throw new SnappyError(
      "CORRUPT_INPUT",
      `stream produces ${produced} bytes, but declares ${declared}`,
    );
  }
  return declared;
}

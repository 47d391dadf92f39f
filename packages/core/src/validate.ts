import type { UncompressOptions } from "./codec.js";
import { SnappyError, type SnappyErrorDetails, type SnappyErrorReason } from "./errors.js";
import { type CheckedInput, checkUncompressedLength } from "./limits.js";
import { concatBytes } from "./output.js";

function corrupt(
  reason: SnappyErrorReason,
  message: string,
  at: number,
  details?: SnappyErrorDetails,
): SnappyError {
  return new SnappyError(reason, `${message} (at byte ${at})`, { at, ...details });
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
  return validateBody(checkUncompressedLength(input, options));
}

/**
 * Walk `input` with {@link validateCompressed} when it holds the bytes `fc ff ff ff ff`: a
 * literal whose 4-byte length field is ffffffff (2^32 bytes, never valid). Google's
 * libsnappy (1.1.7 and 1.2.2 alike) adds 1 to that field in 32 bits, decodes a literal of 0
 * bytes and accepts the stream; only inputs holding those five bytes can carry one, so a
 * scan for them (rare in real streams) spares every other input the walk. For adapters
 * over libsnappy, with the length the stream declares.
 */
export function refuseWrappingLiterals(input: Uint8Array, declared: number): void {
  if (holdsWrappingLiteral(input)) validateCompressed(input, { maxLength: declared });
}

const WRAPPING = [0xfc, 0xff, 0xff, 0xff, 0xff];
// Node's and Bun's Buffer#indexOf search natively (2.6 µs on a 59 KiB beacon block, Node
// 26); Deno's is JavaScript (220 µs), and browsers have none.
const NodeBuffer = "Deno" in globalThis ? undefined : globalThis.Buffer;
const wrapping = NodeBuffer?.from(WRAPPING);

/**
 * Whether `input` holds the five bytes. Without a native search: their four ff bytes always
 * include an aligned pair, so a search for the 16-bit word ffff finds every candidate
 * (16 µs on that block in Deno, where stepping through its fc bytes costs 30 µs).
 */
function holdsWrappingLiteral(input: Uint8Array): boolean {
  const { buffer, byteOffset, length } = input;
  if (NodeBuffer && wrapping) {
    return NodeBuffer.from(buffer, byteOffset, length).indexOf(wrapping) !== -1;
  }
  const first = (byteOffset + 1) & ~1;
  const words = new Uint16Array(buffer, first, (byteOffset + length - first) >> 1);
  for (let w = words.indexOf(0xffff); w !== -1; w = words.indexOf(0xffff, w + 1)) {
    const pair = first - byteOffset + 2 * w;
    for (let at = Math.max(0, pair - 3); at <= pair; at++) {
      if (WRAPPING.every((byte, i) => input[at + i] === byte)) return true;
    }
  }
  return false;
}

/** {@link validateCompressed} after its length check: the walk over the body. */
export function validateBody(checked: CheckedInput): number {
  const { length: declared, headerSize, bytes: input } = checked;
  // The walk only tells valid from invalid, kept small because it runs before every decode
  // it guards; the reason is worked out by a second, slower walk (explainInvalid).
  const end = input.length;
  let pos = headerSize;
  let produced = 0;
  while (pos < end) {
    const tag = input[pos]!;
    const kind = tag & 3;
    let length = (tag >>> 2) + 1;
    if (kind === 0) {
      pos++;
      if (length > 60) {
        const extra = length - 60;
        if (pos + extra > end) return explainInvalid(input, headerSize, declared);
        length = input[pos]!;
        if (extra > 1) length |= input[pos + 1]! << 8;
        if (extra > 2) length |= input[pos + 2]! << 16;
        if (extra > 3) length += input[pos + 3]! * 0x100_0000;
        length += 1;
        pos += extra;
      }
      if (length > end - pos) return explainInvalid(input, headerSize, declared);
      pos += length;
    } else {
      let offset: number;
      if (kind === 1) {
        if (pos + 2 > end) return explainInvalid(input, headerSize, declared);
        length = 4 + ((tag >>> 2) & 7);
        offset = ((tag >>> 5) << 8) | input[pos + 1]!;
        pos += 2;
      } else if (kind === 2) {
        if (pos + 3 > end) return explainInvalid(input, headerSize, declared);
        offset = input[pos + 1]! | (input[pos + 2]! << 8);
        pos += 3;
      } else {
        if (pos + 5 > end) return explainInvalid(input, headerSize, declared);
        offset =
          (input[pos + 1]! | (input[pos + 2]! << 8) | (input[pos + 3]! << 16)) +
          input[pos + 4]! * 0x100_0000;
        pos += 5;
      }
      if (offset === 0 || offset > produced) return explainInvalid(input, headerSize, declared);
    }
    produced += length;
    if (produced > declared) return explainInvalid(input, headerSize, declared);
  }
  if (produced !== declared) return explainInvalid(input, headerSize, declared);
  return declared;
}

/** The same walk as {@link validateCompressed}, throwing with what is wrong and where. */
function explainInvalid(input: Uint8Array, headerSize: number, declared: number): never {
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
        if (pos + extra > end) throw corrupt("truncated", "truncated literal length", start);
        length = 0;
        for (let i = extra - 1; i >= 0; i--) length = length * 256 + input[pos + i]!;
        pos += extra;
      }
      length += 1;
      if (length > end - pos) {
        throw corrupt(
          "literal-past-input",
          `literal of ${length} bytes runs past the end of the input`,
          start,
          { length, produced },
        );
      }
      pos += length;
    } else {
      let offset: number;
      if ((tag & 3) === 1) {
        if (pos + 1 > end) throw corrupt("truncated", "truncated copy tag", start);
        length = 4 + ((tag >>> 2) & 7);
        offset = ((tag >>> 5) << 8) | input[pos]!;
        pos += 1;
      } else if ((tag & 3) === 2) {
        if (pos + 2 > end) throw corrupt("truncated", "truncated copy tag", start);
        length = (tag >>> 2) + 1;
        offset = input[pos]! | (input[pos + 1]! << 8);
        pos += 2;
      } else {
        if (pos + 4 > end) throw corrupt("truncated", "truncated copy tag", start);
        length = (tag >>> 2) + 1;
        offset =
          (input[pos]! | (input[pos + 1]! << 8) | (input[pos + 2]! << 16)) +
          input[pos + 3]! * 0x100_0000;
        pos += 4;
      }
      if (offset === 0) throw corrupt("offset-zero", "copy with offset 0", start, { produced });
      if (offset > produced) {
        throw corrupt(
          "offset-past-output",
          `copy offset ${offset} reaches before the ${produced} bytes produced`,
          start,
          { offset, produced },
        );
      }
    }
    produced += length;
    if (produced > declared) {
      throw corrupt(
        "output-overrun",
        `stream produces more than the ${declared} bytes it declares`,
        start,
        { declared, produced: produced - length, length },
      );
    }
  }
  // Both walks check the same things, so the stream ended early: only it can be wrong here.
  throw new SnappyError(
    "truncated",
    `stream produces ${produced} bytes, but declares ${declared}`,
    { declared, produced, at: end },
  );
}

/**
 * The stream `checked` holds (one {@link validateBody} accepted), with every literal's
 * length written in its shortest form, the one encoders write; undefined when every literal
 * already is. Some decoders reject a legal longer form (Rust snap and snappyjs read four
 * length bytes whatever the tag says, so a short literal in a long form at the end of the
 * input fails): `guardedCodec` retries them on this. Copies and literal data are kept as
 * they are.
 */
export function shortestLiterals(checked: CheckedInput): Uint8Array | undefined {
  const { bytes: input, headerSize } = checked;
  const parts: Uint8Array[] = [];
  let kept = 0;
  let pos = headerSize;
  while (pos < input.length) {
    const tag = input[pos]!;
    const kind = tag & 3;
    if (kind !== 0) {
      pos += kind === 1 ? 2 : kind === 2 ? 3 : 5;
      continue;
    }
    let lengthMinusOne = tag >>> 2;
    let header = 1;
    if (lengthMinusOne >= 60) {
      header += lengthMinusOne - 59;
      lengthMinusOne = 0;
      for (let i = header - 1; i >= 1; i--) lengthMinusOne = lengthMinusOne * 256 + input[pos + i]!;
      const shortest = literalHeader(lengthMinusOne);
      if (shortest.length < header) {
        parts.push(input.subarray(kept, pos), shortest);
        kept = pos + header;
      }
    }
    pos += header + lengthMinusOne + 1;
  }
  if (kept === 0) return undefined;
  parts.push(input.subarray(kept));
  return concatBytes(parts);
}

/** The shortest tag and length bytes of a literal of `lengthMinusOne + 1` bytes (§2.1). */
function literalHeader(lengthMinusOne: number): Uint8Array {
  if (lengthMinusOne < 60) return Uint8Array.of(lengthMinusOne << 2);
  const bytes = [];
  for (let v = lengthMinusOne; v > 0; v = Math.floor(v / 256)) bytes.push(v % 256);
  return Uint8Array.of((59 + bytes.length) << 2, ...bytes);
}

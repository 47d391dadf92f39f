import { bytesOf } from "./bytes.js";
import { SnappyError } from "./errors.js";

/** Largest length the Snappy preamble may declare: a 32-bit unsigned integer. */
export const MAX_SNAPPY_LENGTH = 0xffff_ffff;

/** The uncompressed length a Snappy stream declares, and how many bytes its varint took. */
export interface UncompressedLength {
  /** Declared uncompressed length in bytes. */
  readonly length: number;
  /** Size of the varint preamble (1–5 bytes); the compressed body starts here. */
  readonly headerSize: number;
}

/**
 * Read the varint preamble of a raw Snappy stream.
 *
 * format_description.txt §1: "the stream starts with the uncompressed length (up to a
 * maximum of 2^32 - 1), stored as a little-endian varint". So at most 5 bytes, and the
 * fifth byte may only carry the top 4 bits.
 *
 * @throws SnappyError `CORRUPT_INPUT` for an empty or truncated (`truncated`), overlong or
 *   > 2^32-1 (`bad-preamble`) varint; `INVALID_ARGUMENT` for anything but a `Uint8Array`.
 */
export function readUncompressedLength(bytes: Uint8Array): UncompressedLength {
  return readPreamble(bytesOf(bytes));
}

/** {@link readUncompressedLength} of bytes already checked by `bytesOf`. */
export function readPreamble(bytes: Uint8Array): UncompressedLength {
  // Preambles of up to 3 bytes (lengths below 2 MiB: every gossip message and block) are
  // read without a loop; this function stays small enough for V8 to inline into every
  // guard, which is most of what a guard costs on a gossip-sized call. One object, made at
  // the one return: V8 removes an inlined allocation whose fields are only read, but not one
  // of several merged at a return (that cost every uncompressInto 24 bytes of heap).
  const n = bytes.length;
  const b0 = n >= 3 ? bytes[0]! : 0x80;
  const b1 = n >= 3 ? bytes[1]! : 0x80;
  const b2 = n >= 3 ? bytes[2]! : 0x80;
  let length: number;
  let headerSize: number;
  if (b0 < 0x80) {
    length = b0;
    headerSize = 1;
  } else if (b1 < 0x80) {
    length = (b0 & 0x7f) | (b1 << 7);
    headerSize = 2;
  } else if (b2 < 0x80) {
    length = (b0 & 0x7f) | ((b1 & 0x7f) << 7) | (b2 << 14);
    headerSize = 3;
  } else {
    ({ length, headerSize } = readLongOrShort(bytes));
  }
  return { length, headerSize };
}

/** Any preamble, byte by byte, with the reason when it is invalid. */
function readLongOrShort(bytes: Uint8Array): UncompressedLength {
  let length = 0;
  let scale = 1; // 128^i
  for (let i = 0; i < 5; i++) {
    if (i >= bytes.length) {
      throw new SnappyError(
        "truncated",
        i === 0
          ? "empty input: a Snappy stream needs at least its length preamble"
          : `truncated length preamble: input ended after ${i} varint byte(s)`,
        { at: i },
      );
    }
    const byte = bytes[i]!;
    if (i === 4 && byte > 0x0f) {
      throw new SnappyError(
        "bad-preamble",
        byte & 0x80
          ? "overlong length preamble: varint continues past 5 bytes"
          : "length preamble exceeds 2^32-1",
        { at: i },
      );
    }
    // Multiply rather than shift: shifts are 32-bit signed in JavaScript. A running scale,
    // not 2 ** (7 * i): that is a Math.pow call, a visible share of decoding a small message.
    length += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) return { length, headerSize: i + 1 };
  }
  // Unreachable: the fifth byte is at most 0x0f, so it ends the varint.
  throw new SnappyError("bad-preamble", "overlong length preamble", { at: 4 });
}

/** Encode `value` (0 ≤ value ≤ 2^32-1) as the Snappy length preamble. */
export function encodeUncompressedLength(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > MAX_SNAPPY_LENGTH) {
    throw new SnappyError("bad-argument", `length ${value} is not in 0..2^32-1`);
  }
  return encodeVarint(value);
}

/**
 * Encode a non-negative safe integer as an unsigned little-endian base-128 varint (the
 * protobuf varint: 7 bits a byte, high bit set on every byte but the last). The Snappy
 * preamble is one of at most 32 bits; Ethereum's `ssz_snappy` length prefix one of 64.
 * @throws SnappyError `INVALID_ARGUMENT` unless `value` is a safe integer ≥ 0.
 */
export function encodeVarint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new SnappyError("bad-argument", `varint value ${value} is not a safe integer ≥ 0`);
  }
  const out: number[] = [];
  // Division, not shifts: shifts are 32-bit signed in JavaScript.
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
  return Uint8Array.from(out);
}

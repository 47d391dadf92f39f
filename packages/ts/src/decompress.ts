// Strict block decompressor: every tag, length and offset is checked before it is used, the
// output is allocated once at the declared length (after core's limit and expansion checks),
// and a stream that produces anything but exactly that length is rejected. The decoding
// itself is in checked.ts (with the WebAssembly kernel) or plain.ts (without it).

import {
  checkUncompressedLength,
  outputRoom,
  outputSpace,
  type UncompressOptions,
} from "@snappykit/core";
import { decodeBody } from "./checked.js";
import { kernel } from "./kernel.js";
import { decodePlain } from "./plain.js";
import { windows } from "./windows.js";

const { OUT, SMALL_OUTPUT } = windows();

// The decoder is chosen once, here and for uncompress below: the kernel's path (checked.ts)
// where the kernel loaded, plain.ts where it did not (kernel.ts says when).
const decode = kernel ? decodeBody : decodePlain;

/**
 * Node's `Buffer.allocUnsafeSlow`, where there is one: a buffer of its own that is not
 * zero-filled first (the fill is a second pass over every result's bytes). Safe here because the decoder
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
export const uncompress: (input: Uint8Array, options?: UncompressOptions) => Uint8Array = kernel
  ? uncompressWithKernel
  : uncompressPlain;

function uncompressWithKernel(input: Uint8Array, options?: UncompressOptions): Uint8Array {
  // `bytes` is the input as a plain view: the decoder never calls the caller's methods.
  const { length, headerSize, bytes } = checkUncompressedLength(input, options);
  if (length <= SMALL_OUTPUT) {
    // Left in the window and copied out: one call allocates and copies.
    decodeBody(bytes, headerSize, null, length);
    return OUT.slice(0, length);
  }
  const out = allocate(length);
  decodeBody(bytes, headerSize, out, length);
  return out;
}

function uncompressPlain(input: Uint8Array, options?: UncompressOptions): Uint8Array {
  const { length, headerSize, bytes } = checkUncompressedLength(input, options);
  const out = allocate(length);
  decodePlain(bytes, headerSize, out, length);
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
 * An `output` overlapping `input` is decoded exactly as from a copy of `input` when the
 * declared length is at most 4 KiB (with the kernel: the input is then copied into its window
 * whole before anything is written, and the output copied out at the end), and refused
 * (`INVALID_ARGUMENT`) otherwise.
 *
 * @throws SnappyError `OUTPUT_TOO_SMALL` (before writing) when `output` is shorter than the
 * declared length; `INVALID_ARGUMENT` when `output` is not a `Uint8Array` or overlaps
 * `input` (see above); otherwise as {@link uncompress}.
 */
export function uncompressInto(
  input: Uint8Array,
  output: Uint8Array,
  options?: UncompressOptions,
): number {
  const { length, headerSize, bytes } = checkUncompressedLength(input, options);
  // With the kernel a small output is decoded from a copy of the input in the window and
  // written at the end only, so an overlap needs no check (a gossip message saves ~15 ns).
  const dest =
    kernel && length <= SMALL_OUTPUT
      ? outputRoom(output, length)
      : outputSpace(bytes, output, length);
  decode(bytes, headerSize, dest, length);
  return length;
}

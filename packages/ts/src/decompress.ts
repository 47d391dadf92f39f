// Strict block decompressor: every tag, length and offset is checked before it is used, the
// output is allocated once at the declared length (after core's limit and expansion checks),
// and a stream that produces anything but exactly that length is rejected. The decoding
// itself is in checked.ts and fast-path.ts.

import {
  checkUncompressedLength,
  encodeVarint,
  outputSpace,
  type UncompressOptions,
} from "@snappykit/core";
import { decodeBody } from "./checked.js";
import {
  COPY1_MIN_LENGTH,
  LITERAL_LENGTH_IN_TAG,
  TAG_COPY1,
  TAG_COPY2,
  TAG_COPY4,
} from "./tags.js";
import { windows } from "./windows.js";

const { OUT, SMALL_OUTPUT } = windows();

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
export function uncompress(input: Uint8Array, options?: UncompressOptions): Uint8Array {
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
  const { length, headerSize, bytes } = checkUncompressedLength(input, options);
  decodeBody(bytes, headerSize, outputSpace(bytes, output, length), length);
  return length;
}

/**
 * The stream the warm-up decodes: every branch of the fast path (fast-path.ts): literals of
 * each length class, copies at offsets 1, 2, 3, 4–7 and ≥ 8, short and long; then a few
 * checked elements (a long literal, copy-1, copy-4).
 */
export function warmUpStream(): Uint8Array {
  const element: number[] = [];
  const literal = (n: number) => {
    const m = n - 1;
    const head =
      m < LITERAL_LENGTH_IN_TAG
        ? [m << 2]
        : m < 256
          ? [LITERAL_LENGTH_IN_TAG << 2, m]
          : [(LITERAL_LENGTH_IN_TAG + 1) << 2, m & 0xff, m >>> 8];
    element.push(...head);
    for (let i = 0; i < n; i++) element.push((i * 37 + n) & 0xff);
    return n;
  };
  const copy = (length: number, offset: number) => {
    element.push(((length - 1) << 2) | TAG_COPY2, offset & 0xff, offset >>> 8);
    return length;
  };
  let n = 0;
  for (const size of [1, 5, 12, 40, 100, 300]) n += literal(size);
  for (const offset of [1, 2, 3, 5, 10, 40, 300]) n += copy(8, offset) + copy(20, offset);
  n += copy(64, 100) + literal(200);
  element.push(((7 - COPY1_MIN_LENGTH) << 2) | TAG_COPY1, 7); // copy-1: 7 bytes at offset 7
  n += 7;
  element.push(((5 - 1) << 2) | TAG_COPY4, 9, 0, 0, 0); // copy-4: 5 bytes at offset 9
  n += 5;
  return Uint8Array.from([...encodeVarint(n), ...element]);
}

/**
 * Decodes {@link warmUpStream} at load through both entry points, so the optimiser has type
 * feedback for every branch: a branch the first hot data never took (offset 2 or 3 in a
 * beacon block, say) would otherwise deoptimise the decoder on first use. Costs one decode
 * of a 1 KiB stream, five times, in the interpreter. The entry points are parameters for the
 * test that checks both are run.
 */
export function warmUp(into = uncompressInto, whole = uncompress): void {
  const stream = warmUpStream();
  // Several times: the engine only starts collecting feedback some way into a function's
  // first calls.
  const out = new Uint8Array(uncompressedLength(stream));
  for (let round = 0; round < 4; round++) into(stream, out);
  whole(stream);
}
warmUp();

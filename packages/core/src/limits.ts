import type { UncompressOptions } from "./codec.js";
import { SnappyError } from "./errors.js";
import { MAX_SNAPPY_LENGTH, readUncompressedLength, type UncompressedLength } from "./varint.js";

/**
 * Default `maxLength` for {@link SnappyCodec.uncompress}: 256 MiB. Generous (Ethereum's
 * MAX_PAYLOAD_SIZE is 10 MiB) but finite, so a hostile preamble cannot claim 4 GiB.
 */
export const DEFAULT_MAX_LENGTH = 256 * 1024 * 1024;

/**
 * Largest output one compressed byte can produce. The densest element is a copy with a
 * 2-byte offset: 3 bytes that expand to up to 64 (format_description.txt §2.2.2), so no
 * valid body of `b` bytes decodes to more than `b * 64 / 3` bytes.
 */
export const MAX_EXPANSION_RATIO = 64 / 3;

/**
 * Worst-case compressed size of `n` input bytes: `32 + n + n/6`, as in Google's
 * `snappy::MaxCompressedLength` and the consensus spec's `max_compressed_len`.
 * @throws SnappyError `INVALID_ARGUMENT` unless `n` is an integer in 0..2^32-1 (the most a
 *   stream can declare).
 */
export function maxCompressedLength(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > MAX_SNAPPY_LENGTH) {
    throw new SnappyError("INVALID_ARGUMENT", `length ${n} is not an integer in 0..2^32-1`);
  }
  return 32 + n + Math.floor(n / 6);
}

/** Most bytes a compressed body (the stream after its preamble) of `bodyLength` bytes can decode to. */
export function maxExpandedLength(bodyLength: number): number {
  return Math.floor((bodyLength * 64) / 3);
}

/**
 * Throw `INVALID_ARGUMENT` unless `input` is a `Uint8Array` (a `Buffer` is one). A Proxy of
 * one, or an object with `Uint8Array.prototype` in its chain, passes `instanceof` but is no
 * typed array (every method throws a `TypeError` on it): `ArrayBuffer.isView` tells.
 */
export function assertBytes(input: unknown, what = "input"): asserts input is Uint8Array {
  if (!(input instanceof Uint8Array && ArrayBuffer.isView(input))) notBytes(input, what);
}

// The checks below run on every call, often around a sub-µs backend call. Their messages
// are built in these separate functions so the checks stay small enough for V8 to inline.
function notBytes(input: unknown, what: string): never {
  throw new SnappyError(
    "INVALID_ARGUMENT",
    input instanceof Uint8Array
      ? `${what} is not a real Uint8Array (a Proxy, or an object that inherits from one)`
      : `${what} must be a Uint8Array, got ${describeValue(input)}`,
  );
}

/** `null`, `number 10`, `string`, `array`…: what a caller passed, for a message. */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${value}`;
  return typeof value;
}

/**
 * Throw `INVALID_ARGUMENT` unless `options` is `undefined` or an object whose own and
 * inherited enumerable keys are all in `known`: a misspelt option (`maxlength`) or a value
 * where the options object goes (`uncompress(input, 10)`, as snappyjs takes it) would
 * otherwise be ignored, and the caller believe a limit is in force that is not.
 */
export function checkOptions(options: unknown, known: readonly string[], what = "options"): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new SnappyError(
      "INVALID_ARGUMENT",
      `${what} must be an object with ${known.join(", ")}, got ${describeValue(options)}`,
    );
  }
  for (const key in options) if (!known.includes(key)) unknownOption(key, known, what);
}

function unknownOption(key: string, known: readonly string[], what = "options"): never {
  const meant = known.find((k) => k.toLowerCase() === key.toLowerCase());
  throw new SnappyError(
    "INVALID_ARGUMENT",
    `${what} has an unknown key "${key}"${meant ? ` (did you mean "${meant}"?)` : ""}; known: ${known.join(", ")}`,
  );
}

const UNCOMPRESS_OPTIONS = ["maxLength"] as const;

/** The `maxLength` in force for `options`, validated (and `options` with it). */
export function resolveMaxLength(options?: UncompressOptions): number {
  if (typeof options !== "object" || options === null) {
    checkOptions(options, UNCOMPRESS_OPTIONS);
  } else {
    // checkOptions' loop, with the one known key inlined: a gossip-sized call passes
    // `{ maxLength }` every time (~4 ns less than the general loop).
    for (const key in options) if (key !== "maxLength") unknownOption(key, UNCOMPRESS_OPTIONS);
  }
  const maxLength = options?.maxLength ?? DEFAULT_MAX_LENGTH;
  if (!Number.isSafeInteger(maxLength) || maxLength < 0) {
    throw new SnappyError(
      "INVALID_ARGUMENT",
      `maxLength must be a non-negative integer, got ${maxLength}`,
    );
  }
  return maxLength;
}

/**
 * The length guard every adapter runs before handing input to its backend: reads the
 * preamble, then rejects a declared length over `maxLength` (`LENGTH_LIMIT`) or beyond what
 * the body could ever expand to (`CORRUPT_INPUT`, a decompression bomb), all before any
 * output is allocated.
 */
export function checkUncompressedLength(
  input: Uint8Array,
  options?: UncompressOptions,
): UncompressedLength {
  assertBytes(input);
  const maxLength = options === undefined ? DEFAULT_MAX_LENGTH : resolveMaxLength(options);
  const header = readUncompressedLength(input);
  const { length } = header;
  // Compared as in maxExpandedLength, without its division: length > body · 64/3.
  if (length > maxLength || length * 3 > (input.length - header.headerSize) * 64) {
    rejectLength(input, header, maxLength);
  }
  return header;
}

function rejectLength(input: Uint8Array, header: UncompressedLength, maxLength: number): never {
  if (header.length > maxLength) {
    throw new SnappyError(
      "LENGTH_LIMIT",
      `stream declares ${header.length} bytes, over the maxLength of ${maxLength}`,
    );
  }
  const body = input.length - header.headerSize;
  throw new SnappyError(
    "CORRUPT_INPUT",
    `stream declares ${header.length} bytes, but its ${body}-byte body can decode to at most ${maxExpandedLength(body)}`,
  );
}

/** Throw `CORRUPT_INPUT` unless a backend's `output` has the `expected` (declared) length. */
export function assertOutputLength(output: Uint8Array, expected: number, backend: string): void {
  if (output.length !== expected) wrongLength(output, expected, backend);
}

function wrongLength(output: Uint8Array, expected: number, backend: string): never {
  throw new SnappyError(
    "CORRUPT_INPUT",
    `${backend} produced ${output.length} bytes, but the stream declares ${expected}`,
  );
}

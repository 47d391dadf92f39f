import { bytesOf, describeValue } from "./bytes.js";
import type { UncompressOptions } from "./codec.js";
import { SnappyError } from "./errors.js";
import { MAX_SNAPPY_LENGTH, readPreamble, type UncompressedLength } from "./varint.js";

/** What {@link checkUncompressedLength} found: the preamble, and the input as a plain view. */
export interface CheckedInput extends UncompressedLength {
  /** The caller's input as {@link bytesOf} gives it: read this, never the caller's object. */
  readonly bytes: Uint8Array;
}

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
    throw new SnappyError("bad-argument", `length ${n} is not an integer in 0..2^32-1`);
  }
  return 32 + n + Math.floor(n / 6);
}

/** Most bytes a compressed body (the stream after its preamble) of `bodyLength` bytes can decode to. */
export function maxExpandedLength(bodyLength: number): number {
  return Math.floor((bodyLength * 64) / 3);
}

/**
 * Validate an options object and return its options as a fresh object of its own enumerable
 * properties: `undefined` gives `{}`; anything but an object (a number where the options go,
 * as in `uncompress(input, 10)`, the way snappyjs takes its limit; `null`; an array) and an own
 * key not in `known` (a misspelt `maxlength`) are `INVALID_ARGUMENT` (`bad-options`): the
 * caller would otherwise believe a limit is in force that is not. Inherited properties are never
 * read, and the result has no prototype, so a polluted `Object.prototype` neither sets an
 * option nor breaks a call.
 */
export function checkOptions<T extends object>(
  options: T | undefined,
  known: readonly string[],
  what = "options",
): Partial<T> {
  // No prototype: a key the caller did not set must read as undefined, not as whatever a
  // polluted Object.prototype holds.
  const own: Record<string, unknown> = Object.create(null);
  if (options === undefined) return own as Partial<T>;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new SnappyError(
      "bad-options",
      `${what} must be an object with ${known.join(", ")}, got ${describeValue(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) unknownOption(key, known, what);
    own[key] = (options as Record<string, unknown>)[key];
  }
  return own as Partial<T>;
}

function unknownOption(key: string, known: readonly string[], what = "options"): never {
  const meant = known.find((k) => k.toLowerCase() === key.toLowerCase());
  throw new SnappyError(
    "bad-options",
    `${what} has an unknown key "${key}"${meant ? ` (did you mean "${meant}"?)` : ""}; known: ${known.join(", ")}`,
  );
}

const UNCOMPRESS_OPTIONS = ["maxLength"] as const;
const hasOwn = Object.prototype.hasOwnProperty;

/** The `maxLength` in force for `options`, validated (and `options` with it). */
export function resolveMaxLength(options?: UncompressOptions): number {
  if (options === undefined) return DEFAULT_MAX_LENGTH;
  let maxLength: unknown = DEFAULT_MAX_LENGTH;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    checkOptions(options, UNCOMPRESS_OPTIONS);
  } else {
    // checkOptions, with the one known key inlined and no copy: a gossip-sized call passes
    // `{ maxLength }` every time. Own keys only, as there.
    for (const key in options) {
      if (!hasOwn.call(options, key)) continue;
      if (key !== "maxLength") unknownOption(key, UNCOMPRESS_OPTIONS);
      maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
    }
  }
  if (!Number.isSafeInteger(maxLength) || (maxLength as number) < 0) {
    throw new SnappyError(
      "bad-options",
      `maxLength must be a non-negative integer, got ${String(maxLength)}`,
    );
  }
  return maxLength as number;
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
): CheckedInput {
  const bytes = bytesOf(input);
  const maxLength = options === undefined ? DEFAULT_MAX_LENGTH : resolveMaxLength(options);
  const { length, headerSize } = readPreamble(bytes);
  // Compared as in maxExpandedLength, without its division: length > body · 64/3.
  if (length > maxLength || length * 3 > (bytes.length - headerSize) * 64) {
    rejectLength(bytes, length, headerSize, maxLength);
  }
  return { length, headerSize, bytes };
}

function rejectLength(
  input: Uint8Array,
  declared: number,
  headerSize: number,
  maxLength: number,
): never {
  if (declared > maxLength) {
    throw new SnappyError(
      "length-over-limit",
      `stream declares ${declared} bytes, over the maxLength of ${maxLength}`,
      { declared, limit: maxLength },
    );
  }
  const body = input.length - headerSize;
  const limit = maxExpandedLength(body);
  throw new SnappyError(
    "length-over-expansion",
    `stream declares ${declared} bytes, but its ${body}-byte body can decode to at most ${limit}`,
    { declared, limit },
  );
}

/** Throw `CORRUPT_INPUT` unless a backend's `output` has the `expected` (declared) length. */
export function assertOutputLength(output: Uint8Array, expected: number, backend: string): void {
  if (output.length !== expected) wrongLength(output, expected, backend);
}

function wrongLength(output: Uint8Array, expected: number, backend: string): never {
  throw new SnappyError(
    "backend-rejected",
    `${backend} produced ${output.length} bytes, but the stream declares ${expected}`,
    { declared: expected, produced: output.length },
  );
}

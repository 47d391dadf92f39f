// Assertions the check files share: each throws a plain Error naming what went wrong.
import { isSnappyError } from "@snappykit/core";

export function fail(message: string): never {
  throw new Error(message);
}

/** The first 24 bytes of `bytes` in hex, for messages. */
export const hex = (bytes: Uint8Array): string =>
  Array.from(bytes.subarray(0, 24), (b) => b.toString(16).padStart(2, "0")).join("") +
  (bytes.length > 24 ? "…" : "");

/** The first index where `a` and `b` differ (the shorter one's length if one is a prefix of the other); -1 when they hold the same bytes. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Throws, naming `what` and where they differ, unless `actual` holds `expected`'s bytes. */
export function sameBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  if (!(actual instanceof Uint8Array)) fail(`${what}: returned ${typeof actual}, not a Uint8Array`);
  if (actual.length !== expected.length) {
    fail(`${what}: ${actual.length} bytes, expected ${expected.length}`);
  }
  const i = firstDifference(actual, expected);
  if (i >= 0) fail(`${what}: first differing byte at ${i} (${actual[i]} vs ${expected[i]})`);
}

/** Bytes of array buffers (JS and wasm) held by this process, where that can be read. */
export function arrayBufferBytes(): number {
  return typeof process === "undefined" ? 0 : process.memoryUsage().arrayBuffers;
}

/** Memory growth allowed while rejecting one hostile input: far below any claimed size. */
export const MAX_GROWTH = 64 * 2 ** 20;

/**
 * `call` must throw a `SnappyError` with one of `codes` and a message, without growing
 * array-buffer memory by more than {@link MAX_GROWTH} on the way.
 */
export function expectSnappyError(
  call: () => unknown,
  codes: readonly string[],
  what: string,
): void {
  const before = arrayBufferBytes();
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    if (!isSnappyError(error)) {
      fail(`${what}: threw ${error instanceof Error ? error.name : typeof error}, not SnappyError`);
    }
    if (!codes.includes(error.code)) {
      fail(`${what}: code ${error.code}, expected ${codes.join(" or ")}`);
    }
    if (!error.message) fail(`${what}: SnappyError without a message`);
    const growth = arrayBufferBytes() - before;
    if (growth > MAX_GROWTH) {
      fail(`${what}: allocated ${growth} bytes before rejecting (guard the length first)`);
    }
    return;
  }
  const got = result instanceof Uint8Array ? `${result.length} bytes` : String(result);
  fail(`${what}: returned ${got} instead of throwing SnappyError ${codes.join(" or ")}`);
}

/**
 * `result` is a plain Uint8Array owning all of its buffer, and keeps `expected`'s bytes when
 * `input`, the array it was made from, is overwritten.
 */
export function expectOwned(
  result: Uint8Array,
  expected: Uint8Array,
  input: Uint8Array,
  what: string,
): void {
  if (Object.getPrototypeOf(result) !== Uint8Array.prototype)
    fail(`${what}: not a plain Uint8Array`);
  if (result.byteOffset !== 0 || result.buffer.byteLength !== result.byteLength) {
    fail(`${what}: a view into a larger buffer`);
  }
  input.fill(0xa5);
  sameBytes(result, expected, `${what}, after the input was overwritten`);
}

// Shared test helpers (not shipped: test files are excluded from the build).
import {
  concatBytes,
  isSnappyError,
  type SnappyCodec,
  type SnappyErrorCode,
} from "@snappykit/core";
import { createCodec as createNapi } from "@snappykit/napi";
import { createCodec as createSnappyWasm } from "@snappykit/snappy-wasm";
import { expect } from "vitest";
import { crc32c, maskChecksum } from "../crc32c.js";
import { CHUNK_HEADER_SIZE, writeChunkHeader } from "../format.js";
import { decodeFramed, FrameDecoder } from "../index.js";

/** The two real adapters the framing layer is tested over. */
export const codecs: SnappyCodec[] = [await createNapi(), await createSnappyWasm()];

/** Inputs shared with the other packages' tests (conformance's corpus). */
export { randomBytes, structuredBytes } from "@snappykit/conformance/cases";

/** `parts` back to back (core's `concatBytes`, spread for brevity in tests). */
export const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

/** A chunk: type, 24-bit length, body. */
export function chunk(type: number, body: Uint8Array | number[]): Uint8Array {
  const b = body instanceof Uint8Array ? body : Uint8Array.from(body);
  const out = new Uint8Array(CHUNK_HEADER_SIZE + b.length);
  writeChunkHeader(out, 0, type, b.length);
  out.set(b, CHUNK_HEADER_SIZE);
  return out;
}

/** `x` as 4 little-endian bytes. */
export const le32 = (x: number) =>
  Uint8Array.of(x & 0xff, (x >>> 8) & 0xff, (x >>> 16) & 0xff, x >>> 24);

/** The masked CRC-32C a data chunk carries for `data`, as it is stored (§3). */
export const crcOf = (data: Uint8Array) => le32(maskChecksum(crc32c(data)));

/** The error code `fn` throws, or "no error". */
export function codeOf(fn: () => unknown): SnappyErrorCode | "no error" {
  try {
    fn();
  } catch (error) {
    if (isSnappyError(error)) return error.code;
    throw error;
  }
  return "no error";
}

export async function asyncCodeOf(
  fn: () => Promise<unknown>,
): Promise<SnappyErrorCode | "no error"> {
  try {
    await fn();
  } catch (error) {
    if (isSnappyError(error)) return error.code;
    throw error;
  }
  return "no error";
}

/** Decode with the streaming decoder fed `step` bytes at a time. */
export function decodeInSteps(codec: SnappyCodec, bytes: Uint8Array, step: number): Uint8Array {
  const decoder = new FrameDecoder(codec);
  const parts: Uint8Array[] = [];
  for (let pos = 0; pos < bytes.length; pos += step) {
    for (const out of decoder.write(bytes.subarray(pos, pos + step))) parts.push(out);
  }
  decoder.end();
  return concat(...parts);
}

/**
 * Expect the one-shot decoder and the streaming decoder (whole, and byte by byte) to reject
 * `bytes` with `code` and a message matching `pattern`.
 */
export function expectRejected(
  codec: SnappyCodec,
  bytes: Uint8Array,
  code: SnappyErrorCode,
  pattern: RegExp,
): void {
  for (const run of [
    () => decodeFramed(codec, bytes),
    () => decodeInSteps(codec, bytes, bytes.length || 1),
    () => decodeInSteps(codec, bytes, 1),
  ]) {
    let caught: unknown;
    try {
      run();
    } catch (error) {
      caught = error;
    }
    expect(isSnappyError(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
    expect((caught as Error).message).toMatch(pattern);
  }
}

const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** Byte equality, fast on large arrays (vitest's deep equality is slow) and blind to Buffer vs Uint8Array. */
export function expectBytes(actual: Uint8Array, expected: Uint8Array, label?: string): void {
  expect(actual, label).toBeInstanceOf(Uint8Array);
  expect(actual.length, label).toBe(expected.length);
  const i = view(actual).compare(view(expected));
  expect(i === 0 ? "equal" : "bytes differ", label).toBe("equal");
}

/** A copy of `bytes` with bit mask `mask` flipped at `index`. */
export function flipped(bytes: Uint8Array, index: number, mask = 1): Uint8Array {
  const out = bytes.slice();
  out[index] = out[index]! ^ mask;
  return out;
}

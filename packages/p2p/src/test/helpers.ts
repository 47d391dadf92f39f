import {
  concatBytes,
  isSnappyError,
  type SnappyCodec,
  type SnappyErrorCode,
} from "@snappykit/core";
import { crc32c, maskChecksum } from "@snappykit/framing";
import { createCodec as createNapi } from "@snappykit/napi";
import { createCodec as createTs } from "@snappykit/ts";
import { expect } from "vitest";

/**
 * The arrays hold the same bytes, item by item: compared as buffers, since a deep equality
 * of 32 blocks byte by byte takes the matcher tens of seconds.
 */
export function expectSameBytes(actual: readonly Uint8Array[], expected: readonly Uint8Array[]) {
  expect(actual.length).toBe(expected.length);
  actual.forEach((item, i) => {
    expectBytes(item, expected[i]!, `item ${i}`);
  });
}

/** Every item of an async iterable, in order. */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

/** Every gossip fixture of @snappykit/fixtures, by name. */
export const GOSSIP_FIXTURES = [
  "single-attestation",
  "attestation",
  "aggregate-and-proof",
  "sync-committee-message",
  "contribution-and-proof",
  "beacon-block",
  "blob-sidecar",
  "data-column-sidecar",
];

// Framed and ssz_snappy bytes for the ssz_snappy tests, built from the format's clauses.

/** The codecs the ssz_snappy tests run over: ours, and libsnappy's through snappy@7. */
export const codecs: SnappyCodec[] = [await createTs(), await createNapi()];

/** Deterministic pseudo-random bytes (xorshift32). */
export function randomBytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Compressible, block-like bytes: small integers, repeated 32-byte roots, some noise. */
export function structuredBytes(n: number, seed = 7): Uint8Array {
  const noise = randomBytes(n, seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const lane = (i >>> 5) % 8;
    out[i] = lane < 3 ? (i & 31) * lane : lane < 6 ? 0 : noise[i]!;
  }
  return out;
}

/** `parts` back to back. */
export const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

/** A framed chunk (framing_format.txt §1): type, 24-bit little-endian length, body. */
export function chunk(type: number, body: Uint8Array | number[]): Uint8Array {
  const b = body instanceof Uint8Array ? body : Uint8Array.from(body);
  return concat(Uint8Array.of(type, b.length & 0xff, (b.length >> 8) & 0xff, b.length >> 16), b);
}

/** The masked CRC-32C a data chunk carries for `data`, little-endian (§3). */
export function crcOf(data: Uint8Array): Uint8Array {
  const crc = maskChecksum(crc32c(data));
  return Uint8Array.of(crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24);
}

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

/** The error code `fn`'s promise rejects with, or "no error". */
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

/** Byte equality, fast on large arrays and blind to Buffer vs Uint8Array. */
export function expectBytes(actual: Uint8Array, expected: Uint8Array, label?: string): void {
  expect(actual, label).toBeInstanceOf(Uint8Array);
  expect(Buffer.compare(actual, expected) === 0 ? "equal" : "bytes differ", label).toBe("equal");
}

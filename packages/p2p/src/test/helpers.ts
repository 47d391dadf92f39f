import { sameBytes, snappyErrorOf } from "@snappykit/conformance/cases";
import {
  concatBytes,
  type SnappyCodec,
  type SnappyError,
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

export { randomBytes, structuredBytes } from "@snappykit/conformance/cases";

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

/** The SnappyError `fn` throws or rejects with, checked for `code` when one is given. */
export async function errorOf(fn: () => unknown, code?: SnappyErrorCode): Promise<SnappyError> {
  try {
    await fn();
  } catch (error) {
    return snappyErrorOf(() => {
      throw error;
    }, code);
  }
  throw new Error(`expected a SnappyError${code ? ` ${code}` : ""}, but the call succeeded`);
}

/** The code of the SnappyError `fn` throws or rejects with, or "no error". */
export async function codeOf(fn: () => unknown): Promise<SnappyErrorCode | "no error"> {
  try {
    await fn();
  } catch (error) {
    return snappyErrorOf(() => {
      throw error;
    }).code;
  }
  return "no error";
}

/** Byte equality (conformance's), named by `label`. */
export const expectBytes = (actual: Uint8Array, expected: Uint8Array, label = "bytes") =>
  sameBytes(actual, expected, label);

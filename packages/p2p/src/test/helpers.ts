import { expect } from "vitest";

/**
 * The arrays hold the same bytes, item by item: compared as buffers, since a deep equality
 * of 32 blocks byte by byte takes the matcher tens of seconds.
 */
export function expectSameBytes(actual: readonly Uint8Array[], expected: readonly Uint8Array[]) {
  expect(actual.length).toBe(expected.length);
  actual.forEach((item, i) => {
    expect(
      Buffer.from(item.buffer, item.byteOffset, item.length).equals(expected[i]!),
      `item ${i}`,
    ).toBe(true);
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

// The calls of one async wave, each with what it must produce: mixed sizes and operations,
// some hostile. Every plaintext carries its call's index in its first bytes, so a result
// delivered to the wrong call cannot match by accident.
import { hostileCases, mutate, prng, randomBytes } from "@snappykit/conformance/cases";
import type { SnappyCodec } from "@snappykit/core";
import { loadPayloads } from "@snappykit/fixtures";
import { stitch } from "../inputs.js";
import { referenceOutcome } from "../reference.js";

const KiB = 1024;

export const CALL_KINDS = [
  "compress",
  "uncompress",
  "overMaxLength",
  "hostile",
  "mutated",
  "badArgument",
] as const;
export type CallKind = (typeof CALL_KINDS)[number];

/** One planned call: what to run and what must come back. */
export interface PlannedCall {
  kind: CallKind;
  run(codec: SnappyCodec): Promise<Uint8Array>;
  /** The bytes it must resolve with, or `null` when it must reject. */
  expected: Uint8Array | null;
  /** When it must reject: the SnappyError codes allowed. */
  codes?: readonly string[];
  /** When it must reject: a string its message must contain (its own maxLength). */
  mentions?: string;
  size: number;
}

/** Plaintext sizes and their weights: mostly small, a few large enough to take real time. */
const SIZES: readonly [number, number][] = [
  [0, 2],
  [1, 2],
  [100, 20],
  [1000, 25],
  [4 * KiB, 20],
  [32 * KiB, 15],
  [64 * KiB + 1, 10],
  [256 * KiB, 4],
  [1024 * KiB, 2],
];
const TOTAL_WEIGHT = SIZES.reduce((s, [, w]) => s + w, 0);

let fixtureItems: Uint8Array[] | undefined;

function plaintext(next: () => number, index: number): Uint8Array {
  let r = next() * TOTAL_WEIGHT;
  let size = 0;
  for (const [s, w] of SIZES) {
    size = s;
    r -= w;
    if (r < 0) break;
  }
  fixtureItems ??= loadPayloads().flatMap((p) => p.items.slice(0, 8));
  const out = new Uint8Array(size);
  const source = next();
  if (source < 0.5 && fixtureItems.length > 0) {
    // Real structure: fixture items end to end.
    stitch(out, fixtureItems, Math.floor(next() * fixtureItems.length));
  } else if (source < 0.8) {
    out.set(randomBytes(size, Math.floor(next() * 2 ** 31)));
  } else {
    out.fill(0x41 + (index % 26));
  }
  for (let k = 0; k < 4 && k < size; k++) out[k] = (index >>> (8 * k)) & 0xff;
  return out;
}

/** `count` calls for `codec` (which has at least one async API), seeded. */
export function planWave(
  codec: SnappyCodec,
  count: number,
  seed: number,
  first: number,
): PlannedCall[] {
  const next = prng(seed);
  const compressAsync = codec.compressAsync;
  const uncompressAsync = codec.uncompressAsync;
  const calls: PlannedCall[] = [];
  for (let i = 0; i < count; i++) {
    const index = first + i;
    const r = next();
    if (compressAsync && (r < 0.35 || !uncompressAsync)) {
      const input = plaintext(next, index);
      calls.push({
        kind: "compress",
        run: (c) => c.compressAsync!(input),
        expected: codec.compress(input),
        size: input.length,
      });
      continue;
    }
    if (!uncompressAsync) continue;
    if (r < 0.7) {
      const input = plaintext(next, index);
      const stream = codec.compress(input);
      calls.push({
        kind: "uncompress",
        run: (c) => c.uncompressAsync!(stream),
        expected: input,
        size: stream.length,
      });
    } else if (r < 0.8) {
      // A limit unique to this call: its LENGTH_LIMIT message must name it.
      const input = plaintext(next, index);
      if (input.length < 2) {
        i--;
        continue;
      }
      const stream = codec.compress(input);
      const maxLength = input.length - 1 - (index % Math.min(input.length - 1, 997));
      calls.push({
        kind: "overMaxLength",
        run: (c) => c.uncompressAsync!(stream, { maxLength }),
        expected: null,
        codes: ["LENGTH_LIMIT"],
        mentions: `maxLength of ${maxLength}`,
        size: stream.length,
      });
    } else if (r < 0.9) {
      const hostile = hostileCases[Math.floor(next() * hostileCases.length)]!;
      const options =
        hostile.maxLength === undefined ? undefined : { maxLength: hostile.maxLength };
      calls.push({
        kind: "hostile",
        run: (c) => c.uncompressAsync!(hostile.bytes, options),
        expected: null,
        codes: hostile.codes,
        size: hostile.bytes.length,
      });
    } else if (r < 0.98) {
      const input = plaintext(next, index).subarray(0, 4096);
      const stream = mutate(codec.compress(input), next);
      calls.push({
        kind: "mutated",
        run: (c) => c.uncompressAsync!(stream),
        expected: referenceOutcome(stream),
        codes: ["CORRUPT_INPUT", "LENGTH_LIMIT"],
        size: stream.length,
      });
    } else {
      const bad = next() < 0.5 ? "not bytes" : null;
      const viaCompress = compressAsync !== undefined && next() < 0.5;
      calls.push({
        kind: "badArgument",
        run: (c) =>
          viaCompress ? c.compressAsync!(bad as never) : c.uncompressAsync!(bad as never),
        expected: null,
        codes: ["INVALID_ARGUMENT"],
        size: 0,
      });
    }
  }
  return calls;
}

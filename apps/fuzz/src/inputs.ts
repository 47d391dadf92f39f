// The three input sets, deterministic from a seed so every codec sees the same bytes and a
// run can be replayed: crafted cases, uniformly random inputs, mutated valid streams.
import {
  hostileCases,
  type LegalCase,
  legalForms,
  mutate,
  prng,
  validStreams,
} from "@snappykit/conformance/cases";

/** Names of the input sets, in run order. */
export type SetName = "crafted" | "random" | "mutated";
export const SET_NAMES: readonly SetName[] = ["crafted", "random", "mutated"];

/** One input set: the bytes to decompress and, for crafted cases, a `maxLength`. */
export interface InputSet {
  name: SetName;
  inputs: Uint8Array[];
  /** `maxLength` per input; `undefined` = the codec's default. */
  maxLength: (number | undefined)[];
  /** A label per input (crafted cases only), shown next to examples. */
  labels?: string[];
}

/**
 * The conformance suite's crafted inputs: every hostile case (each must be rejected) and
 * every hand-built valid stream (each must decode), whatever N is.
 */
export function craftedSet(): InputSet {
  const cases = [
    ...hostileCases.map((c) => ({ name: c.name, bytes: c.bytes, maxLength: c.maxLength })),
    ...validStreams.map((s) => ({
      name: `valid: ${s.name}`,
      bytes: s.bytes,
      maxLength: undefined,
    })),
    // Forms no encoder writes, so that a raw library rejecting valid input shows as
    // false rejects in its row (three did, and their adapters once passed that on).
    ...legalFormSeeds(CRAFTED_LEGAL_FORMS, 512).map((c) => ({
      name: `valid: legal form: ${c.name}`,
      bytes: c.stream,
      maxLength: undefined,
    })),
  ];
  return {
    name: "crafted",
    inputs: cases.map((c) => c.bytes),
    maxLength: cases.map((c) => c.maxLength),
    labels: cases.map((c) => c.name),
  };
}

/** Legal-form streams among the crafted cases. */
export const CRAFTED_LEGAL_FORMS = 16;

/** Shortest and longest random input: the 1–128 bytes. */
export const RANDOM_MIN_LENGTH = 1;
export const RANDOM_MAX_LENGTH = 128;

/** `n` inputs of uniformly random length (1–128) and uniformly random bytes. */
export function randomSet(n: number, seed: number): InputSet {
  const next = prng(seed);
  const inputs: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const length =
      RANDOM_MIN_LENGTH + Math.floor(next() * (RANDOM_MAX_LENGTH - RANDOM_MIN_LENGTH + 1));
    const bytes = new Uint8Array(length);
    for (let j = 0; j < length; j++) bytes[j] = Math.floor(next() * 256);
    inputs.push(bytes);
  }
  return { name: "random", inputs, maxLength: inputs.map(() => undefined) };
}

/** `n` mutated copies of valid streams drawn from `pool` (compressed fixture items). */
export function mutatedSet(pool: readonly Uint8Array[], n: number, seed: number): InputSet {
  if (pool.length === 0) throw new Error("mutatedSet needs at least one valid stream");
  const next = prng(seed);
  const inputs: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    inputs.push(mutate(pool[Math.floor(next() * pool.length)]!, next));
  }
  return { name: "mutated", inputs, maxLength: inputs.map(() => undefined) };
}

/**
 * `count` of conformance's legal-form streams (every literal-length and copy form, not
 * only the shortest an encoder writes) of at most `maxBytes`: half the shortest (short
 * literals in every length form, at the end or before a copy, which three backends once
 * rejected), half evenly spaced over the rest by size, up to the longest that fits (copies
 * at the forms' limits, overlapping copies, the longest streams). Seeds that make mutations
 * reach the decoders' paths for the forms encoders never write.
 */
export function legalFormSeeds(count: number, maxBytes: number): LegalCase[] {
  const fitting = legalForms().filter((c) => c.stream.length <= maxBytes);
  const bySize = [...fitting].sort((a, b) => a.stream.length - b.stream.length);
  const half = Math.ceil(count / 2);
  const shortest = bySize.slice(0, half);
  const rest = bySize.slice(half);
  const spaced = Math.min(count - shortest.length, rest.length);
  const at = (i: number) => (spaced < 2 ? 0 : Math.round((i * (rest.length - 1)) / (spaced - 1)));
  return [...shortest, ...Array.from({ length: spaced }, (_, i) => rest[at(i)]!)];
}

/** Uncompressed prefix lengths cut from each fixture item to build the stream pool. */
export const POOL_PREFIXES = [24, 64, 160, 400, 1000, 2500] as const;

/**
 * Plaintexts for the mutated set: prefixes of `items` (fixture payload items) in several
 * sizes, so the compressed streams stay small (tens to ~1,000 bytes, where a mutation has a
 * fair chance of landing in every part of the stream) yet keep the fixtures' structure.
 */
export function poolPlaintexts(items: readonly Uint8Array[], perItemLimit = 6): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const item of items) {
    let taken = 0;
    for (const prefix of POOL_PREFIXES) {
      if (taken >= perItemLimit) break;
      if (item.length < prefix) {
        if (item.length > 0 && taken === 0) out.push(item);
        break;
      }
      out.push(item.subarray(0, prefix));
      taken++;
    }
  }
  return out;
}

/**
 * Fill `out` with `items` (fixture items) end to end, from item `start` on and wrapping: data
 * with the structure of real payloads, at any size. Empty items stop the fill.
 */
export function stitch(out: Uint8Array, items: readonly Uint8Array[], start: number): Uint8Array {
  for (let pos = 0, i = start; pos < out.length && items.length > 0; i++) {
    const item = items[i % items.length]!;
    if (item.length === 0) break;
    out.set(item.subarray(0, out.length - pos), pos);
    pos += Math.min(item.length, out.length - pos);
  }
  return out;
}

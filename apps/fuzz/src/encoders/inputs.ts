// Inputs built to break encoders: sizes on both sides of 32 Ki, 64 Ki (Snappy's block), 128 Ki
// and 4 Mi; long runs; data that repeats at distances just below, at and above 2^11 (where
// copy-1 ends) and 2^16 (where copy-2 ends, and where an encoder that truncates offsets to
// 16 bits goes wrong); random and repeated segments mixed; fixture items stitched together.
// Each input is a small spec, regenerated from it wherever it is needed (a child process
// rebuilds the bytes instead of receiving megabytes over IPC).
import { prng } from "@snappykit/conformance/cases";
import { loadPayloads } from "@snappykit/fixtures";
import { stitch } from "../inputs.js";

const KiB = 1024;
const MiB = 1024 * KiB;

/** Copy offsets on both sides of the copy-1/copy-2 and copy-2/copy-4 boundaries. */
export const BOUNDARY_DISTANCES = [2047, 2048, 2049, 65535, 65536, 65537] as const;

export type EncoderInputKind =
  | "random"
  | "run"
  | `repeat-${(typeof BOUNDARY_DISTANCES)[number]}`
  | "mixed"
  | "fixtures"
  | "short-period";

export interface EncoderInputSpec {
  kind: EncoderInputKind;
  size: number;
  seed: number;
}

export const ENCODER_KINDS: readonly EncoderInputKind[] = [
  "random",
  "run",
  ...BOUNDARY_DISTANCES.map((d) => `repeat-${d}` as const),
  "mixed",
  "fixtures",
  "short-period",
];

/** Sizes around 32 Ki, 64 Ki, 128 Ki and 4 Mi (4 Mi with fewer offsets: it dominates the time). */
export function encoderSizes(quick: boolean): number[] {
  if (quick) return [32 * KiB - 1, 64 * KiB, 64 * KiB + 1, 128 * KiB + 2];
  const around = (n: number, deltas: number[]) => deltas.map((d) => n + d);
  return [
    ...around(32 * KiB, [-2, -1, 0, 1, 2]),
    ...around(64 * KiB, [-2, -1, 0, 1, 2]),
    ...around(128 * KiB, [-2, -1, 0, 1, 2]),
    ...around(4 * MiB, [-1, 0, 1]),
  ];
}

/** Every (kind, size) pair, seeded from `seed`. */
export function encoderSpecs(seed: number, quick = false): EncoderInputSpec[] {
  return encoderSizes(quick).flatMap((size, i) =>
    ENCODER_KINDS.map((kind, k) => ({ kind, size, seed: seed * 1000 + i * 31 + k })),
  );
}

export function describeSpec(spec: EncoderInputSpec): string {
  return `${spec.kind} ${spec.size} B (seed ${spec.seed})`;
}

let fixtureItems: Uint8Array[] | undefined;

/** The bytes of `spec`. */
export function buildInput(spec: EncoderInputSpec): Uint8Array {
  const { size } = spec;
  const next = prng(spec.seed);
  const out = new Uint8Array(size);
  const fillRandom = (from: number, to: number) => {
    for (let i = from; i < to; i++) out[i] = (next() * 256) | 0;
  };
  if (spec.kind === "random") {
    fillRandom(0, size);
  } else if (spec.kind === "run") {
    // One long run, with a single different byte at a random place: runs of copies, and a
    // literal in the middle of them.
    out.fill(0x61);
    if (size > 0) out[Math.floor(next() * size)] = 0x62;
  } else if (spec.kind.startsWith("repeat-")) {
    // A random period of exactly `d` bytes, repeated: the only match at any position is
    // `d` back (or a multiple), so the encoder must emit that offset or literals.
    const d = Number(spec.kind.slice("repeat-".length));
    fillRandom(0, Math.min(d, size));
    for (let i = d; i < size; i++) out[i] = out[i - d]!;
  } else if (spec.kind === "mixed") {
    // Random segments and back-references, the distances drawn from the boundaries ± 3,
    // small values and anything within reach.
    let pos = 0;
    while (pos < size) {
      const len = Math.min(size - pos, 1 + Math.floor(next() * (next() < 0.5 ? 64 : 20000)));
      const r = next();
      if (r < 0.4 || pos < 16) {
        fillRandom(pos, pos + len);
      } else {
        const edge = BOUNDARY_DISTANCES[Math.floor(next() * BOUNDARY_DISTANCES.length)]!;
        const d =
          r < 0.8
            ? edge + Math.floor(next() * 7) - 3
            : r < 0.9
              ? 1 + Math.floor(next() * 16)
              : 1 + Math.floor(next() * pos);
        if (d > pos) fillRandom(pos, pos + len);
        else for (let i = pos; i < pos + len; i++) out[i] = out[i - d]!;
      }
      pos += len;
    }
  } else if (spec.kind === "fixtures") {
    fixtureItems ??= loadPayloads().flatMap((p) => p.items);
    stitch(out, fixtureItems, Math.floor(next() * fixtureItems.length));
  } else {
    // short-period: periods 1–7 (overlapping copies), a random byte every ~1,000.
    let pos = 0;
    while (pos < size) {
      const period = 1 + Math.floor(next() * 7);
      const unit = Array.from({ length: period }, () => (next() * 256) | 0);
      const len = Math.min(size - pos, 1 + Math.floor(next() * 1000));
      for (let i = 0; i < len; i++) out[pos + i] = unit[i % period]!;
      pos += len;
      if (pos < size) out[pos++] = (next() * 256) | 0;
    }
  }
  return out;
}

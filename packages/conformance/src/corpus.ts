// Deterministic inputs for the suite: a seeded PRNG, the built-in round-trip corpus, and a
// literal-only encoder to build valid (and then deliberately broken) streams by hand.

/** mulberry32: small, fast, seeded; the same seed gives the same bytes on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` pseudo-random bytes from `seed`. */
export function randomBytes(n: number, seed = 1): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (next() * 256) | 0;
  return out;
}

/**
 * `n` compressible, block-like bytes: lanes of small integers, zeros (as in 32-byte roots and
 * padding) and noise from `seed`, each 32 bytes wide.
 */
export function structuredBytes(n: number, seed = 7): Uint8Array {
  const noise = randomBytes(n, seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const lane = (i >>> 5) % 8;
    out[i] = lane < 3 ? (i & 31) * lane : lane < 6 ? 0 : noise[i]!;
  }
  return out;
}

/** `n` bytes of `pattern` repeated. */
export function repeating(n: number, pattern: string): Uint8Array {
  const unit = new TextEncoder().encode(pattern);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = unit[i % unit.length]!;
  return out;
}

/** Alternating 4 KiB runs of random and repeating bytes: both encoder paths in one input. */
export function mixed(n: number, seed: number): Uint8Array {
  const out = randomBytes(n, seed);
  const text = repeating(4096, "validator_index=1234567;slot=9876543;");
  for (let at = 4096; at < n; at += 8192) out.set(text.subarray(0, Math.min(4096, n - at)), at);
  return out;
}

/** A named input for round trips. */
export interface CorpusItem {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * The built-in round-trip corpus: edge sizes, both extremes of compressibility, and sizes
 * straddling the 64 KiB blocks that Snappy encoders compress independently.
 */
export function builtinCorpus(): CorpusItem[] {
  const KiB = 1024;
  const items: CorpusItem[] = [
    { name: "empty", bytes: new Uint8Array(0) },
    { name: "1 byte", bytes: Uint8Array.of(0x2a) },
    { name: "14 bytes (under the encoders' 15-byte margin)", bytes: randomBytes(14, 14) },
    { name: "144 B random (a SyncCommitteeMessage's size)", bytes: randomBytes(144, 144) },
    { name: "300 B repeating", bytes: repeating(300, "ab") },
    { name: "64 KiB random", bytes: randomBytes(64 * KiB, 1) },
    { name: "64 KiB repeating", bytes: repeating(64 * KiB, "snappykit ") },
    { name: "64 KiB zeros", bytes: new Uint8Array(64 * KiB) },
    { name: "1 MiB mixed", bytes: mixed(1024 * KiB, 2) },
  ];
  for (const n of [64 * KiB - 1, 64 * KiB + 1, 128 * KiB - 1, 128 * KiB + 3]) {
    items.push({ name: `${n} B mixed (64 KiB block boundary)`, bytes: mixed(n, n) });
  }
  return items;
}

/** Little-endian varint, as the Snappy preamble stores lengths. */
export function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** The tag and length bytes of a literal of `n` ≥ 1 bytes (format_description.txt §2.1). */
export function literalHeader(n: number): number[] {
  const m = n - 1;
  if (m < 60) return [m << 2];
  const bytes: number[] = [];
  for (let v = m; v > 0; v = Math.floor(v / 256)) bytes.push(v % 256);
  return [(59 + bytes.length) << 2, ...bytes];
}

/** A literal element for `data` (format_description.txt §2.1), any length up to 2^32. */
export function literal(data: ArrayLike<number>): number[] {
  return [...literalHeader(data.length), ...Array.from(data)];
}

/** A copy-1 element: `length` 4..11 bytes from `offset` < 2048 back (§2.2.1). */
export function copy1(length: number, offset: number): number[] {
  return [((offset >>> 8) << 5) | ((length - 4) << 2) | 1, offset & 0xff];
}

/** A copy-2 element: `length` 1..64 bytes from `offset` < 65,536 back (§2.2.2). */
export function copy2(length: number, offset: number): number[] {
  return [((length - 1) << 2) | 2, offset & 0xff, offset >>> 8];
}

/** A copy-4 element: `length` 1..64 bytes from `offset` < 2^32 back (§2.2.3). */
export function copy4(length: number, offset: number): number[] {
  return [((length - 1) << 2) | 3, ...[0, 8, 16, 24].map((shift) => (offset >>> shift) & 0xff)];
}

/**
 * A valid stream that stores `data` as literals of at most `piece` bytes only: what any
 * decoder must read. One piece for the whole output is the form libsnappy writes for
 * incompressible input.
 */
export function literalStream(data: Uint8Array, piece = 65536): Uint8Array {
  const heads: number[][] = [];
  for (let at = 0; at < data.length; at += piece) {
    heads.push(literalHeader(Math.min(piece, data.length - at)));
  }
  const preamble = varint(data.length);
  const out = new Uint8Array(
    preamble.length + heads.reduce((sum, head) => sum + head.length, 0) + data.length,
  );
  out.set(preamble);
  let pos = preamble.length;
  heads.forEach((head, i) => {
    out.set(head, pos);
    pos += head.length;
    const chunk = data.subarray(i * piece, (i + 1) * piece);
    out.set(chunk, pos);
    pos += chunk.length;
  });
  return out;
}

/** Share of mutated inputs that are also truncated. */
export const TRUNCATE_SHARE = 0.25;

/**
 * Copy `stream`, overwrite 1–4 bytes at random positions with random values, and truncate
 * a quarter of the copies at a random length (at least 1 byte). An overwrite may by chance
 * write the same byte, so a few inputs stay valid: they test that nothing valid is refused.
 * The suite's mutated inputs and the fuzzer's mutated set are made by this one function.
 */
export function mutate(stream: Uint8Array, next: () => number): Uint8Array {
  let out = stream.slice();
  const writes = 1 + Math.floor(next() * 4);
  for (let w = 0; w < writes; w++) {
    out[Math.floor(next() * out.length)] = Math.floor(next() * 256);
  }
  if (out.length > 1 && next() < TRUNCATE_SHARE) {
    out = out.subarray(0, 1 + Math.floor(next() * (out.length - 1))).slice();
  }
  return out;
}

/** `count` mutations of `stream` ({@link mutate}), deterministically from `seed`. */
export function mutations(stream: Uint8Array, count: number, seed: number): Uint8Array[] {
  const next = prng(seed);
  return Array.from({ length: count }, () => mutate(stream, next));
}

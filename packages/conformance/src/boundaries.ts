// Valid input at every size the code treats specially: each size constant (read from the
// code by readSizeConstants) and each power of two, ±1, as random, zero and text bytes,
// through every operation the codec offers. A decoder that fails one valid stream at one
// size (ts once threw on a 4096-byte output held in one literal) fails here.
import { isSnappyError, MAX_SNAPPY_LENGTH, maxCompressedLength } from "@snappykit/core";
import type { AddCheck } from "./check.js";
import { literalStream, prng, randomBytes, varint } from "./corpus.js";
import { expectSnappyError, fail, sameBytes } from "./expect.js";
import { oracleUncompress } from "./oracle.js";
import type { BoundaryPlan } from "./sizes.js";

const GROUP = "boundary sizes";

/** Sizes up to this get every kind of data and the oracle; larger ones zeros only. */
const ALL_KINDS_UP_TO = 2 ** 20 + 1;

const WORDS = ["slot", "epoch", "attestation", "0x1f2e3d", "validator", "root", "block", "sig"];

/** Words from a small vocabulary in a seeded order: short literals and copies, like text. */
function text(n: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(n);
  const encoder = new TextEncoder();
  let at = 0;
  while (at < n) {
    const word = encoder.encode(`${WORDS[Math.floor(next() * WORDS.length)]} `);
    out.set(word.subarray(0, n - at), at);
    at += word.length;
  }
  return out;
}

/** The kinds of data tested at `size`. */
function kinds(size: number): [string, Uint8Array][] {
  if (size > ALL_KINDS_UP_TO) return [["zeros", new Uint8Array(size)]];
  return [
    ["random", randomBytes(size, size)],
    ["zeros", new Uint8Array(size)],
    ["text", text(size, size)],
  ];
}

function expectCode(call: () => unknown, code: string, what: string): void {
  try {
    call();
  } catch (error) {
    if (isSnappyError(error, code as never)) return;
    fail(`${what}: threw ${String(error)}, expected SnappyError ${code}`);
  }
  fail(`${what}: returned instead of throwing ${code}`);
}

/** Register one check per size of `plan`. */
export function boundaryChecks(add: AddCheck, plan: BoundaryPlan): void {
  for (const { size, because } of plan.sizes) {
    add(GROUP, `${size} B (${because.join("; ")})`, async (c) => {
      for (const [kind, data] of kinds(size)) {
        const what = (op: string) => `${op}(${size} B ${kind})`;
        const compressed = c.compress(data);
        sameBytes(c.uncompress(compressed), data, what("uncompress ∘ compress"));
        if (size <= ALL_KINDS_UP_TO) {
          sameBytes(oracleUncompress(compressed), data, what("oracle ∘ compress"));
        }
        // Streams no codec under test wrote: one literal for all of it, and 64 KiB literals.
        for (const piece of [Math.max(size, 1), 65_536]) {
          const stream = literalStream(data, piece);
          sameBytes(c.uncompress(stream), data, what(`uncompress(literals of ≤ ${piece} B)`));
        }
        const bound = (c.maxCompressedLength ?? maxCompressedLength)(size);
        if (compressed.length > bound)
          fail(`${what("compress")}: ${compressed.length} B, over its bound ${bound}`);
        if (c.uncompressedLength && c.uncompressedLength(compressed) !== size) {
          fail(`${what("uncompressedLength")}: not ${size}`);
        }
        sameBytes(
          c.uncompress(compressed, { maxLength: size }),
          data,
          what("uncompress, maxLength = size"),
        );
        if (size > 0) {
          expectCode(
            () => c.uncompress(compressed, { maxLength: size - 1 }),
            "LENGTH_LIMIT",
            what("uncompress, maxLength = size - 1"),
          );
        }
        if (c.compressAsync)
          sameBytes(await c.compressAsync(data), compressed, what("compressAsync"));
        if (c.uncompressAsync)
          sameBytes(await c.uncompressAsync(compressed), data, what("uncompressAsync"));
        if (c.compressInto) {
          const out = new Uint8Array(bound);
          sameBytes(out.subarray(0, c.compressInto(data, out)), compressed, what("compressInto"));
        }
        if (c.uncompressInto) {
          const out = new Uint8Array(size);
          if (c.uncompressInto(compressed, out) !== size)
            fail(`${what("uncompressInto")}: not ${size}`);
          sameBytes(out, data, what("uncompressInto"));
          if (size > 0) {
            expectCode(
              () => c.uncompressInto!(compressed, out.subarray(1)),
              "OUTPUT_TOO_SMALL",
              what("uncompressInto, size - 1"),
            );
          }
        }
      }
    });
  }
  if (plan.tooLarge.length === 0) return;
  const large = plan.tooLarge.map((k) => `${k.name} (${k.value})`).join(", ");
  add(GROUP, `over the round-trip sizes: ${large}`, (c) => {
    // Too large to round-trip in a test; a stream claiming them (±1, up to 2^32-1) with a
    // 3-byte body is refused before any allocation, and the compress bound is defined.
    for (const { name, value } of plan.tooLarge) {
      for (const size of [value - 1, value, value + 1].map(Math.round)) {
        if (size < 0 || size > MAX_SNAPPY_LENGTH) continue;
        const bomb = Uint8Array.from([...varint(size), 0x00, 0x61, 0x00]);
        expectSnappyError(
          () => c.uncompress(bomb),
          ["CORRUPT_INPUT", "LENGTH_LIMIT"],
          `uncompress(claims ${size} B: ${name})`,
        );
        const bound = (c.maxCompressedLength ?? maxCompressedLength)(size);
        if (!Number.isSafeInteger(bound) || bound < maxCompressedLength(size)) {
          fail(
            `maxCompressedLength(${size}) is ${bound}, under the format's ${maxCompressedLength(size)}`,
          );
        }
      }
    }
  });
}

// The inputs the forks time, prepared once in the parent: each payload compressed by the
// reference codec (what every `uncompress` case decodes). On the way, the
// cross-compatibility gate: every codec must interoperate byte-exactly with the reference
// on every payload, in both directions (a fast codec that writes streams others cannot
// read is not a candidate, so a mismatch aborts the run), and each encoder's output size is
// recorded for the size table, since the gate has just made those outputs.
import type { SnappyCodec } from "@snappykit/core";
import type {
  BenchPayload,
  PreparedInputs,
  PreparedPayload,
  SizeResult,
  Target,
} from "../model/case.js";
import { REFERENCE_PREFERENCE } from "../model/options.js";

/** Thrown when a codec and the reference disagree; names codec, payload and direction. */
export class GateError extends Error {
  override readonly name = "GateError";
  constructor(
    readonly codec: string,
    readonly payload: string,
    readonly direction: string,
    readonly item: number,
    readonly detail: string,
  ) {
    super(
      `cross-compatibility gate failed: codec "${codec}", payload "${payload}" item ${item}, ` +
        `direction ${direction}: ${detail}`,
    );
  }
}

function firstDifference(a: Uint8Array, b: Uint8Array): string | undefined {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) {
      return `bytes differ at offset ${i} (expected 0x${hex(b[i]!)}, got 0x${hex(a[i]!)}; lengths ${a.length} vs ${b.length} expected)`;
    }
  }
  return a.length === b.length ? undefined : `length ${a.length}, expected ${b.length}`;
}

const hex = (n: number) => n.toString(16).padStart(2, "0");

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `call`'s result; what it throws, as an error saying `what` failed. */
async function step<T>(what: string, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new Error(`${what}: ${describe(error)}`);
  }
}

/**
 * Compress every payload with the reference, and check every target against it:
 * `target.compress → reference.uncompress` and `reference.compress → target.uncompress`
 * must both give back the original item exactly (and the async variants where present).
 * @throws GateError on the first disagreement.
 */
export async function prepareInputs(
  reference: Target,
  targets: readonly Target[],
  payloads: readonly BenchPayload[],
): Promise<PreparedInputs> {
  const prepared: PreparedPayload[] = [];
  const sizes: SizeResult[] = [];
  let checks = 0;
  const label = (t: Target) => (t.impl === "raw" ? `${t.codec} (raw library)` : t.codec);

  for (const payload of payloads) {
    const referenceCompressed = payload.items.map((item, i) => {
      try {
        return reference.backend.compress(item);
      } catch (error) {
        throw new GateError(
          reference.codec,
          payload.name,
          "reference compress",
          i,
          describe(error),
        );
      }
    });

    for (const target of targets) {
      // A codec of another runtime answers through its process there (inputs/elsewhere.ts).
      const calls = target.elsewhere?.gate ?? target.backend;
      const b = target.backend;
      const [t, r] = [target.codec, reference.codec];
      let compressedBytes = 0;
      for (let i = 0; i < payload.items.length; i++) {
        const item = payload.items[i]!;
        const fromReference = referenceCompressed[i]!;
        // One direction: `roundTrip` must give back the item exactly.
        const check = async (direction: string, roundTrip: () => Promise<Uint8Array>) => {
          let out: Uint8Array;
          try {
            out = await roundTrip();
          } catch (error) {
            throw new GateError(label(target), payload.name, direction, i, describe(error));
          }
          const diff = firstDifference(out, item);
          if (diff) throw new GateError(label(target), payload.name, direction, i, diff);
          checks++;
        };
        await check(`${t}.compress → ${r}.uncompress`, async () => {
          const compressed = await step("compress threw", () => calls.compress(item));
          compressedBytes += compressed.length;
          return step("reference could not decode it", () =>
            reference.backend.uncompress(compressed),
          );
        });
        await check(`${r}.compress → ${t}.uncompress`, () =>
          step("uncompress threw", () => calls.uncompress(fromReference)),
        );
        if (b.compressAsync) {
          await check(`${t}.compressAsync → ${r}.uncompress`, async () =>
            reference.backend.uncompress(await b.compressAsync!(item)),
          );
        }
        if (b.uncompressAsync) {
          await check(`${r}.compress → ${t}.uncompressAsync`, () =>
            b.uncompressAsync!(fromReference),
          );
        }
      }
      if (target.impl === "adapter") {
        sizes.push({
          codec: target.codec,
          payload: payload.name,
          bytes: payload.bytes,
          compressedBytes,
          ratio: compressedBytes === 0 ? 1 : payload.bytes / compressedBytes,
        });
      }
    }
    prepared.push({ payload, referenceCompressed, reference: reference.backend as SnappyCodec });
  }
  return { reference: reference.codec, prepared, sizes, checks };
}

/**
 * Choose the reference: `preferred` if given, else libsnappy, else napi.
 * @throws Error naming what is available when none of them loaded.
 */
export function chooseReference(targets: readonly Target[], preferred?: string): Target {
  const order = preferred ? [preferred] : REFERENCE_PREFERENCE;
  for (const id of order) {
    const found = targets.find((t) => t.codec === id && t.impl === "adapter");
    if (found) return found;
  }
  throw new Error(
    `no reference codec: needs ${order.join(" or ")}, loaded: ${
      targets.map((t) => t.codec).join(", ") || "none"
    }`,
  );
}

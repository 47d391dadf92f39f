// `npx @snappykit/auto calibrate`: the thresholds measured where auto is installed, in the
// user's own Node, on the user's machine, with the published packages alone. A short size
// sweep of ts against the native codec on two streams (block-like and incompressible bytes),
// timed in one process in interleaved rounds: each round times every case of both codecs
// back to back, so a slow spell of the machine hits both sides of a ratio. Each size's ratio
// is the median over rounds with its interval (`pairedRatio`), its crossing is found by
// `findCrossover`, and `thresholdsFromSweep` (the derivation of the shipped thresholds)
// writes the file `createCodec({ thresholds })` takes.
import os from "node:os";
import { type SnappyCodec, SnappyError } from "@snappykit/core";
import { type ThresholdsFile, thresholdsFromSweep } from "./calibrate.js";
import { findCrossover, medianEstimate, pairedRatio } from "./crossover.js";

/** Bytes to cut each size from: the two kinds of data auto routes by. */
export interface CalibrationData {
  /** Block-like bytes (consensus blocks: compress ~1.8×), laid end to end. */
  readonly compressible: readonly Uint8Array[];
  /** Bytes Snappy cannot shrink (blob and column sidecars), laid end to end. */
  readonly incompressible: readonly Uint8Array[];
  /** Where they came from, in words, for the thresholds' provenance. */
  readonly description: string;
}

export interface CalibrateOptions {
  readonly ts: SnappyCodec;
  readonly native: SnappyCodec;
  readonly data: CalibrationData;
  /** Uncompressed sizes to time; default 1 KiB to 1 MiB in ×2 steps. */
  readonly sizes?: readonly number[];
  /** Interleaved rounds; each gives one ratio per case. Default 21. */
  readonly rounds?: number;
  /** Milliseconds one timed batch lasts at least. Default 2. */
  readonly batchMs?: number;
  /** The command, for the provenance. */
  readonly command: string;
  /** Called after each round. */
  readonly onRound?: (done: number, total: number) => void;
}

/** 1 KiB to 1 MiB in ×2 steps: around every crossover the full sweep has found. */
export const CALIBRATION_SIZES: readonly number[] = Array.from(
  { length: 11 },
  (_, i) => 1024 * 2 ** i,
);

const OPS = ["compress", "uncompress"] as const;
type Kind = "compressible" | "incompressible";
/** The sweep's stream names, which `thresholdsFromSweep` reads kinds from. */
const STREAMS = { blocks: "compressible", sidecars: "incompressible" } as const;

/** The first `n` bytes of `parts` laid end to end, starting over when they run out. */
function prefixOf(parts: readonly Uint8Array[], n: number): Uint8Array {
  if (!parts.some((p) => p.length > 0)) throw new SnappyError("bad-argument", "no bytes to cut");
  const out = new Uint8Array(n);
  for (let at = 0; at < n; ) {
    for (const p of parts) {
      const take = Math.min(p.length, n - at);
      out.set(p.subarray(0, take), at);
      at += take;
      if (at >= n) break;
    }
  }
  return out;
}

interface Case {
  readonly stream: keyof typeof STREAMS;
  readonly op: (typeof OPS)[number];
  readonly size: number;
  /** One call of each codec on this case's input. */
  readonly calls: { readonly ts: () => unknown; readonly napi: () => unknown };
  /** Calls per timed batch, set in the warm-up. */
  reps: number;
}

/** Nanoseconds per call of `call` over `reps` calls. */
function timeBatch(call: () => unknown, reps: number): number {
  let sink: unknown;
  const start = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) sink = call();
  const ns = Number(process.hrtime.bigint() - start) / reps;
  // Kept alive, so the calls cannot be dropped as dead code.
  if (sink === start) throw new Error("unreachable");
  return ns;
}

// A turn of the event loop between batches: snappy@7's finalizers run there, and a batch
// must not pay for the previous one's garbage.
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Time ts against the native codec and derive thresholds from the crossings. */
export async function calibrate(options: CalibrateOptions): Promise<ThresholdsFile> {
  const { ts, native, data } = options;
  const sizes = options.sizes ?? CALIBRATION_SIZES;
  const rounds = options.rounds ?? 21;
  const batchNs = (options.batchMs ?? 2) * 1e6;
  const cases: Case[] = [];
  for (const [stream, kind] of Object.entries(STREAMS) as [keyof typeof STREAMS, Kind][]) {
    for (const size of sizes) {
      const input = prefixOf(data[kind], size);
      const wire = ts.compress(input);
      cases.push(
        {
          stream,
          op: "compress",
          size,
          reps: 1,
          calls: { ts: () => ts.compress(input), napi: () => native.compress(input) },
        },
        {
          stream,
          op: "uncompress",
          size,
          reps: 1,
          calls: { ts: () => ts.uncompress(wire), napi: () => native.uncompress(wire) },
        },
      );
    }
  }
  // Warm-up: both codecs reach their optimised code, and each case gets the calls per batch
  // that make a batch last batchMs on the faster side.
  for (const c of cases) {
    const per = Math.min(timeBatch(c.calls.ts, 3), timeBatch(c.calls.napi, 3));
    c.reps = Math.max(1, Math.ceil(batchNs / Math.max(per, 1)));
    timeBatch(c.calls.ts, c.reps);
    timeBatch(c.calls.napi, c.reps);
    await turn();
  }
  const times = cases.map(() => ({ ts: [] as number[], napi: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of cases.entries()) {
      // ABBA order within the round: a drift of the machine during it cancels out.
      const [first, second] = r % 2 === 0 ? (["ts", "napi"] as const) : (["napi", "ts"] as const);
      const a = timeBatch(c.calls[first], c.reps);
      await turn();
      const b = timeBatch(c.calls[second], c.reps);
      await turn();
      times[i]![first].push(a);
      times[i]![second].push(b);
    }
    options.onRound?.(r + 1, rounds);
  }
  const range = `${sizes[0]} B–${sizes[sizes.length - 1]} B`;
  const series = (Object.entries(STREAMS) as [string, Kind][]).map(([name, kind]) => {
    const mine = cases.map((c, i) => ({ c, t: times[i]! })).filter(({ c }) => c.stream === name);
    const sample = prefixOf(data[kind], 65536);
    return {
      name,
      ratio: sample.length / ts.compress(sample).length,
      points: mine.flatMap(({ c, t }) =>
        (["ts", "napi"] as const).map((codec) => ({
          codec,
          op: c.op,
          size: c.size,
          p50: medianEstimate(t[codec]).value,
        })),
      ),
      crossover: OPS.map((op) => {
        const points = mine
          .filter(({ c }) => c.op === op)
          .map(({ c, t }) => {
            const e = pairedRatio(t.ts, t.napi);
            return {
              size: c.size,
              ratio: e.value,
              low: e.ci?.low,
              high: e.ci?.high,
              level: e.ci?.level,
            };
          });
        const found = findCrossover(points, { a: "ts", b: "napi" }, range);
        return { op, codecs: ["ts", "napi"], size: found.size, ci: found.ci };
      }),
    };
  });
  const file = thresholdsFromSweep(
    {
      command: options.command,
      environment: { node: process.version, date: new Date().toISOString(), machine: machine() },
      series,
    },
    options.command,
    "calibrated",
  );
  return {
    ...file,
    provenance: {
      ...file.provenance,
      backend: native.library,
      data: data.description,
    },
  };
}

/** This machine in words: CPU model × cores, OS, architecture, memory. */
function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? "unknown CPU"} ×${cpus.length}, ${os.type()} ${os.release()} ${os.arch()}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`;
}

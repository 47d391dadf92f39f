// Child process of the safety matrix: loads one adapter's guarded codec, its raw backend, or a
// framed implementation over it, and decompresses each input it is sent (serve.ts), judging
// the result against the reference's and measuring the call's time and peak RSS.
import type { SnappyCodec } from "@snappykit/core";
import { encodeSszSnappy } from "@snappykit/p2p";
import { piecesOf, readPrefix } from "./framed.js";
import { peak, resetPeak } from "./memory.js";
import {
  type CallResult,
  classifyReturn,
  classifyThrow,
  describeError,
  type Expected,
} from "./outcome.js";
import { openSubject, serve } from "./serve.js";

/** What a safety child loads: a codec row's subject, or (`framed`) a framed implementation. */
export interface CellLoad {
  entry: string;
  target: "adapter" | "raw" | "framed";
  variant?: string;
  /** The framed implementation's id (@snappykit/bench/framed), for a `framed` target. */
  framed?: string;
}

/** One input, what the reference makes of it, and its `maxLength` (guarded codecs only). */
export interface CellItem {
  input: Uint8Array;
  expected: Expected;
  maxLength?: number;
}

/** What a safety child calls: `compress` to warm up, `decompress` on each input. */
interface Opened {
  library: string;
  compress(input: Uint8Array): Uint8Array;
  decompress(input: Uint8Array, maxLength: number | undefined): unknown;
}

/**
 * A framed implementation's decode of a whole `ssz_snappy` input, cut into pieces. A library
 * that reads no prefix gets what a client hands it: the prefix read (and bounded) first, the
 * decoded length checked against it after.
 */
async function openFramed(load: CellLoad): Promise<Opened> {
  const codec = (await openSubject({ entry: load.entry, target: "adapter" })) as SnappyCodec;
  const { FRAMED } = await import("@snappykit/bench/framed");
  const impl = FRAMED.find((f) => f.id === load.framed);
  if (!impl) throw new Error(`no framed implementation "${load.framed}"`);
  const decode = impl.decode(codec);
  const none = new Uint8Array(0);
  const compress = (input: Uint8Array) => encodeSszSnappy(codec, input);
  if (impl.overCodec) {
    const library = `${impl.library} over ${codec.library}`;
    return { library, compress, decompress: (input) => decode(none, piecesOf(input)) };
  }
  return {
    library: impl.library,
    compress,
    decompress: async (input) => {
      const { declared, at } = readPrefix(input);
      const out = await decode(none, piecesOf(input.subarray(at)));
      if (out.length !== declared)
        throw new Error(`decoded ${out.length} bytes, the prefix declares ${declared}`);
      return out;
    },
  };
}

async function open(load: CellLoad): Promise<Opened> {
  if (load.target === "framed") return openFramed(load);
  const subject = await openSubject({ ...load, target: load.target });
  return {
    library: subject.library,
    compress: (input) => subject.compress(input),
    decompress: (input, maxLength) =>
      (subject as SnappyCodec).uncompress(
        input,
        maxLength === undefined ? undefined : { maxLength },
      ),
  };
}

function describeOutput(output: unknown, expected: Expected): string {
  if (!(output instanceof Uint8Array)) return `returned ${typeof output}, not a Uint8Array`;
  const ref = expected === null ? "reference rejects" : `reference: ${expected.length} bytes`;
  let first = "";
  if (expected !== null && output.length === expected.length) {
    const at = output.findIndex((b, i) => b !== expected[i]);
    if (at >= 0) first = `, first difference at byte ${at}`;
  }
  return `returned ${output.length} bytes (${ref}${first})`;
}

serve(async (load: CellLoad) => {
  const { library, compress, decompress } = await open(load);
  // Warm up (lazy wasm compilation, JIT, first-call allocations) so the first fuzz input is
  // not charged for them and counted as slow.
  const sample = new TextEncoder().encode("snappykit fuzz warm-up ".repeat(40));
  for (let i = 0; i < 20; i++) await decompress(compress(sample), undefined);
  return {
    library,
    async run({ input, expected, maxLength }: CellItem): Promise<CallResult> {
      const before = resetPeak();
      const start = performance.now();
      let judged: Pick<CallResult, "outcome" | "detail">;
      let ms: number;
      try {
        // A framed target's call is a stream: awaited (the parent's watchdog times it).
        const output = await decompress(input, maxLength);
        ms = performance.now() - start;
        judged = {
          outcome: classifyReturn(output, expected),
          detail: describeOutput(output, expected),
        };
      } catch (error) {
        ms = performance.now() - start;
        judged = { outcome: classifyThrow(error, expected), detail: describeError(error) };
      }
      return { ...judged, ms, rssGrowth: Math.max(0, peak() - before) };
    },
  };
});

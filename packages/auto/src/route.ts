// The router, independent of how the native codec is found: index.ts loads @snappykit/napi,
// browser.ts never tries.
import {
  bytesOf,
  checkOptions,
  checkUncompressedLength,
  maxCompressedLength,
  type RawBackend,
  readUncompressedLength,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import {
  type AutoCodec,
  type AutoDescription,
  type AutoOptions,
  type Backend,
  type CallOp,
  type Kind,
  type KindThresholds,
  library,
  type Op,
  type Provenance,
  provenance,
  shippedThresholds,
  type Thresholds,
} from "./auto.js";

/**
 * The native codec if it loaded (with its unguarded functions when asked for: the codec
 * itself for a backend of your own), or why not.
 */
export type NativeResult =
  | { codec: SnappyCodec; raw?: RawBackend; reason?: string }
  | { reason: string };

const OPS = ["compress", "uncompress"] as const;
const CALL_OPS = [...OPS, "compressInto", "uncompressInto"] as const;
/** The op whose thresholds a call follows. */
const OP_OF: Record<CallOp, Op> = {
  compress: "compress",
  uncompress: "uncompress",
  compressInto: "compress",
  uncompressInto: "uncompress",
};
const KINDS = ["compressible", "incompressible"] as const;
const NEVER: Thresholds = {
  compress: { compressible: null, incompressible: null },
  uncompress: { compressible: null, incompressible: null },
};

function resolveThresholds(options: AutoOptions): Thresholds {
  const own = checkOptions(options, ["thresholds", "native"]);
  const table = checkOptions(own.thresholds, [...OPS, "provenance"], "thresholds");
  const resolved = {} as Record<Op, KindThresholds>;
  for (const op of OPS) {
    const raw = table[op];
    const given =
      raw !== null && typeof raw === "object" ? checkOptions(raw, KINDS, `thresholds.${op}`) : raw;
    const merged: KindThresholds =
      given === undefined
        ? shippedThresholds[op]
        : given === null || typeof given !== "object"
          ? { compressible: given, incompressible: given }
          : { ...shippedThresholds[op], ...given };
    for (const kind of KINDS) {
      const value = merged[kind];
      if (value !== null && !(Number.isSafeInteger(value) && value >= 0)) {
        throw new SnappyError(
          "bad-options",
          `thresholds.${op}.${kind} must be a non-negative integer or null, got ${value}`,
        );
      }
    }
    resolved[op] = merged;
  }
  return resolved;
}

/** How each call's kind is judged (describe().kinds; the README explains the numbers). */
export const KIND_RULES = {
  compress:
    "incompressible when at most 16 of 64 bytes sampled evenly over the input repeat a " +
    "value (random bytes: 4–8, consensus blocks: mostly 20 or more, text: 30 or more), or " +
    "at most 2 of the first 24 do (random bytes: ~1, blocks: mostly 6 or more); " +
    "sampled only at sizes where the two kinds' thresholds disagree",
  uncompress:
    "incompressible when the stream is at least 4/5 of the length it declares " +
    "(compression ratio ≤ 1.25)",
} as const;

// Per byte value, the call that last saw it: no clearing between calls (routing is
// synchronous, so one table serves every call).
const seenIn = new Int32Array(256);
let call = 0;

/** Repeated values among input[from], input[from + step], … below `to`, added to `repeats`. */
function countRepeats(input: Uint8Array, from: number, to: number, step: number, repeats: number) {
  const mark = call;
  for (let i = from; i < to; i += step) {
    const v = input[i]!;
    if (seenIn[v] === mark) {
      // More than 16 already decides "compressible".
      if (++repeats > 16) break;
    } else seenIn[v] = mark;
  }
  return repeats;
}

/**
 * The compress-side kind test: up to 64 bytes sampled at an even, odd stride (a power-of-two
 * one would keep hitting the same byte of every 32-byte field: blob field elements start with
 * a zero byte); more than 16 repeated values means compressible. Most incompressible inputs
 * are settled by the first 24 samples (at most 2 repeats: random bytes have ~1), which is
 * what keeps the test a small fraction of what ts takes to compress them.
 */
function looksIncompressible(input: Uint8Array): boolean {
  call = (call + 1) | 0;
  if (call === 0) {
    seenIn.fill(0);
    call = 1;
  }
  const step = (input.length >>> 6) | 1;
  const end = Math.min(input.length, step * 64);
  const early = Math.min(end, step * 24);
  const repeats = countRepeats(input, 0, early, step, 0);
  return repeats <= 2 || countRepeats(input, early, end, step, repeats) <= 16;
}

/** The uncompress-side kind test: the body is (nearly) as long as what it declares. */
const literalHeavy = (input: Uint8Array, declared: number) => input.length * 5 >= declared * 4;

const kindTests: Record<Op, (input: Uint8Array, size: number) => boolean> = {
  compress: looksIncompressible,
  uncompress: literalHeavy,
};

/**
 * `op`'s decision as one function of (input, size): true = native. The kind is judged only
 * for sizes where the two kinds' thresholds disagree, so gossip messages and large
 * payloads pay one or two comparisons.
 */
function chooser(op: Op, t: KindThresholds): (input: Uint8Array, size: number) => boolean {
  // Infinity stands for "never".
  const compressible = t.compressible ?? Number.POSITIVE_INFINITY;
  const incompressible = t.incompressible ?? Number.POSITIVE_INFINITY;
  const low = Math.min(compressible, incompressible);
  const high = Math.max(compressible, incompressible);
  const test = kindTests[op];
  return (input, size) =>
    size >= low && (size >= high || size >= (test(input, size) ? incompressible : compressible));
}

function checkOp(op: CallOp): CallOp {
  if (!CALL_OPS.includes(op)) {
    throw new SnappyError(
      "bad-argument",
      `op must be one of ${CALL_OPS.map((o) => `"${o}"`).join(", ")}, got ${op}`,
    );
  }
  return op;
}

function checkKind(kind: Kind): Kind {
  if (!KINDS.includes(kind)) {
    throw new SnappyError(
      "bad-argument",
      `kind must be "compressible" or "incompressible", got ${kind}`,
    );
  }
  return kind;
}

/**
 * The uncompressed size a stream declares, for routing only: a malformed preamble reads as
 * 0 (ts then rejects it with the contract's error).
 */
function declaredSize(input: Uint8Array): number {
  try {
    return readUncompressedLength(input).length;
  } catch {
    return 0;
  }
}

/**
 * Which thresholds are in force and where they came from: a calibration's file names itself;
 * sizes given by hand are "custom".
 * @throws SnappyError `INVALID_ARGUMENT` for a provenance that is not a calibration's.
 */
function sourceOf(options: AutoOptions): Pick<AutoDescription, "source" | "provenance"> {
  const given = options.thresholds;
  if (given?.provenance !== undefined) {
    const p = given.provenance as Partial<Provenance> | null;
    const fields = ["node", "machine", "date"] as const;
    if (typeof p !== "object" || p === null || fields.some((f) => typeof p[f] !== "string")) {
      throw new SnappyError(
        "bad-options",
        "thresholds.provenance must say node, machine and date (a calibration's thresholds file has them)",
      );
    }
    return {
      source: p.source === "shipped" ? "shipped" : "calibrated",
      provenance: p as Provenance,
    };
  }
  const custom = given !== undefined && OPS.some((op) => given[op] !== undefined);
  return { source: custom ? "custom" : "shipped", provenance };
}

/** Build the routing codec over `ts` and whatever `native` resolved to. */
export function route(ts: SnappyCodec, native: NativeResult, options: AutoOptions): AutoCodec {
  const nativeCodec = "codec" in native ? native.codec : undefined;
  const tsInto = into(ts);
  // Validated even when native is absent, so a bad option fails everywhere alike.
  const requested = resolveThresholds(options);
  const origin = sourceOf(options);
  const thresholds: Thresholds = nativeCodec ? requested : NEVER;
  const compressNative = chooser("compress", thresholds.compress);
  const uncompressNative = chooser("uncompress", thresholds.uncompress);
  const big = nativeCodec ?? ts;
  const nativeName: Backend | null = nativeCodec?.name ?? null;
  // An into-call follows its op's routing only where the native codec writes into caller
  // memory itself: copying a native result into the caller's array would hide a copy.
  const routed = {
    compressInto: nativeCodec?.compressInto !== undefined,
    uncompressInto: nativeCodec?.uncompressInto !== undefined,
  } as const;
  const sizeFor = (op: Op, input: Uint8Array) =>
    op === "compress" ? input.length : declaredSize(input);
  const goesNative = (op: CallOp, size: number, kind: Kind) => {
    if ((op === "compressInto" || op === "uncompressInto") && !routed[op]) return false;
    const threshold = thresholds[OP_OF[op]][kind];
    return threshold !== null && size >= threshold;
  };
  const nativeCompressInto = nativeCodec?.compressInto;
  const nativeUncompressInto = nativeCodec?.uncompressInto;

  return {
    contractVersion: 1,
    name: "auto",
    library: nativeCodec
      ? `${library} (${ts.library} + ${nativeCodec.library})`
      : `${library} (${ts.library})`,
    runtime: nativeCodec ? "native" : ts.runtime,
    // Checked before routing: routing reads the input, and a Proxy of a Uint8Array passes
    // `instanceof` but throws a TypeError at its first typed-array read.
    compress: (given) => {
      const input = bytesOf(given);
      return compressNative(input, input.length) ? big.compress(input) : ts.compress(input);
    },
    uncompress: (given, options) => {
      const input = bytesOf(given);
      return uncompressNative(input, declaredSize(input))
        ? big.uncompress(input, options)
        : ts.uncompress(input, options);
    },
    // Where every into-call goes to ts, ts's own functions: no second entry check.
    compressInto: nativeCompressInto
      ? (given, output) => {
          const input = bytesOf(given);
          return compressNative(input, input.length)
            ? nativeCompressInto(input, output)
            : tsInto.compressInto(input, output);
        }
      : tsInto.compressInto,
    uncompressInto: nativeUncompressInto
      ? (given, output, options) => {
          const input = bytesOf(given);
          return uncompressNative(input, declaredSize(input))
            ? nativeUncompressInto(input, output, options)
            : tsInto.uncompressInto(input, output, options);
        }
      : tsInto.uncompressInto,
    // Pure functions of the format: the same for every codec.
    uncompressedLength: (input, options) => checkUncompressedLength(input, options).length,
    maxCompressedLength: ts.maxCompressedLength ?? maxCompressedLength,
    describe: () => ({
      ts: ts.library,
      native: nativeCodec?.library ?? null,
      nativeName,
      reason:
        native.reason ??
        `${nativeCodec?.library} loaded; sizes at or over the threshold of their kind go to it`,
      thresholds,
      kinds: KIND_RULES,
      ...origin,
      into: {
        compressInto: routed.compressInto ? "routed" : "ts",
        uncompressInto: routed.uncompressInto ? "routed" : "ts",
      },
    }),
    backendFor: (op, size, kind = "compressible") =>
      goesNative(checkOp(op), size, checkKind(kind)) ? (nativeName ?? "ts") : "ts",
    explain: (op, input) => {
      const call = checkOp(op);
      const bytes = bytesOf(input);
      const size = sizeFor(OP_OF[call], bytes);
      const kind: Kind = kindTests[OP_OF[call]](bytes, size) ? "incompressible" : "compressible";
      return {
        backend: goesNative(call, size, kind) ? (nativeName ?? "ts") : "ts",
        size,
        kind,
        threshold: thresholds[OP_OF[call]][kind],
      };
    },
    // Off-thread work is what the async API is for: only a native codec's thread pool offers it.
    ...(nativeCodec?.compressAsync && { compressAsync: nativeCodec.compressAsync }),
    ...(nativeCodec?.uncompressAsync && { uncompressAsync: nativeCodec.uncompressAsync }),
  };
}

/** A codec's into-calls; ts always has them, and auto's type promises them. */
function into(codec: SnappyCodec): Pick<AutoCodec, "compressInto" | "uncompressInto"> {
  const { compressInto, uncompressInto } = codec;
  if (!compressInto || !uncompressInto) {
    throw new SnappyError("unsupported", `${codec.library} has no compressInto/uncompressInto`);
  }
  return { compressInto, uncompressInto };
}

/** The raw backends routed the same way, for the bench and the fuzzer: no guards at all. */
export function routeRaw(ts: RawBackend, native: NativeResult, options: AutoOptions): RawBackend {
  if (!("raw" in native) || !native.raw)
    return { library: ts.library, compress: ts.compress, uncompress: ts.uncompress };
  const thresholds = resolveThresholds(options);
  const compressNative = chooser("compress", thresholds.compress);
  const uncompressNative = chooser("uncompress", thresholds.uncompress);
  const { raw } = native;
  return {
    library: `${library} (${ts.library} + ${raw.library})`,
    compress: (input) =>
      compressNative(input, input.length) ? raw.compress(input) : ts.compress(input),
    uncompress: (input) =>
      uncompressNative(input, declaredSize(input)) ? raw.uncompress(input) : ts.uncompress(input),
  };
}

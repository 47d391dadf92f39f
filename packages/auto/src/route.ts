// The router, independent of how the native codec is found: index.ts loads @snappykit/napi,
// browser.ts never tries.
import {
  checkUncompressedLength,
  maxCompressedLength,
  type RawBackend,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import {
  type AutoCodec,
  type AutoOptions,
  library,
  provenance,
  shippedThresholds,
  type Thresholds,
} from "./auto.js";

/** The native codec if it loaded, or why not. */
export type NativeResult = { codec: SnappyCodec; raw: RawBackend } | { reason: string };

function resolveThresholds(options: AutoOptions): Thresholds {
  const merged = { ...shippedThresholds, ...options.thresholds };
  for (const op of ["compress", "uncompress"] as const) {
    const value = merged[op];
    if (value !== null && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new SnappyError(
        "INVALID_ARGUMENT",
        `thresholds.${op} must be a non-negative integer or null, got ${value}`,
      );
    }
  }
  return merged;
}

/**
 * The uncompressed size a stream declares, for routing only: a malformed preamble reads as
 * 0 (ts then rejects it with the contract's error). Gossip-sized streams declare their
 * length in one or two bytes, so those are read without a loop.
 */
function declaredSize(input: Uint8Array): number {
  const b0 = input[0] ?? 0;
  if (b0 < 0x80) return b0;
  const b1 = input[1] ?? 0;
  if (b1 < 0x80) return (b0 & 0x7f) | (b1 << 7);
  let size = (b0 & 0x7f) | ((b1 & 0x7f) << 7);
  for (let i = 2; i < 5 && i < input.length; i++) {
    const byte = input[i]!;
    size += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return size;
  }
  return 0;
}

/** Build the routing codec over `ts` and whatever `native` resolved to. */
export function route(ts: SnappyCodec, native: NativeResult, options: AutoOptions): AutoCodec {
  const nativeCodec = "codec" in native ? native.codec : undefined;
  // Validated even when native is absent, so a bad option fails everywhere alike.
  const requested = resolveThresholds(options);
  const thresholds: Thresholds = nativeCodec ? requested : { compress: null, uncompress: null };
  // Infinity stands for "never", so each call is one comparison.
  const compressFrom = thresholds.compress ?? Number.POSITIVE_INFINITY;
  const uncompressFrom = thresholds.uncompress ?? Number.POSITIVE_INFINITY;
  const big = nativeCodec ?? ts;

  const codec: AutoCodec = {
    contractVersion: 1,
    name: "auto",
    library: nativeCodec
      ? `${library} (${ts.library} + ${nativeCodec.library})`
      : `${library} (${ts.library})`,
    runtime: nativeCodec ? "native" : "js",
    // A non-Uint8Array goes to ts, which rejects it with INVALID_ARGUMENT.
    compress: (input) =>
      input instanceof Uint8Array && input.length >= compressFrom
        ? big.compress(input)
        : ts.compress(input),
    uncompress: (input, options) =>
      input instanceof Uint8Array && declaredSize(input) >= uncompressFrom
        ? big.uncompress(input, options)
        : ts.uncompress(input, options),
    // Pure functions of the format: the same for every codec.
    uncompressedLength: (input, options) => checkUncompressedLength(input, options).length,
    maxCompressedLength: ts.maxCompressedLength ?? maxCompressedLength,
    describe: () => ({
      ts: ts.library,
      native: nativeCodec?.library ?? null,
      reason:
        "reason" in native
          ? native.reason
          : `${nativeCodec?.library} loaded; sizes at or over the thresholds go to it`,
      thresholds,
      provenance,
      into: (["compressInto", "uncompressInto"] as const).filter((k) => ts[k] !== undefined),
    }),
    backendFor: (op, size) =>
      nativeCodec && size >= (op === "compress" ? compressFrom : uncompressFrom) ? "napi" : "ts",
  };
  // Caller-owned output only where ts really writes into it (feature-detected, so this
  // works with any @snappykit/ts that has them); napi has no such API. Off-thread work is
  // what the async API is for: only the native thread pool offers it.
  const { compressInto, uncompressInto } = ts;
  const { compressAsync, uncompressAsync } = nativeCodec ?? {};
  return {
    ...codec,
    ...(compressInto && { compressInto }),
    ...(uncompressInto && { uncompressInto }),
    ...(compressAsync && { compressAsync }),
    ...(uncompressAsync && { uncompressAsync }),
  };
}

/** The raw backends routed the same way, for the bench and the fuzzer: no guards at all. */
export function routeRaw(ts: RawBackend, native: NativeResult, options: AutoOptions): RawBackend {
  if (!("raw" in native))
    return { library: ts.library, compress: ts.compress, uncompress: ts.uncompress };
  const { compress, uncompress } = resolveThresholds(options);
  const compressFrom = compress ?? Number.POSITIVE_INFINITY;
  const uncompressFrom = uncompress ?? Number.POSITIVE_INFINITY;
  const { raw } = native;
  return {
    library: `${library} (${ts.library} + ${raw.library})`,
    compress: (input) => (input.length >= compressFrom ? raw.compress(input) : ts.compress(input)),
    uncompress: (input) =>
      declaredSize(input) >= uncompressFrom ? raw.uncompress(input) : ts.uncompress(input),
  };
}

/**
 * `@snappykit/auto`: one {@link SnappyCodec} that sends each call to the fastest codec for
 * its size, using crossover sizes measured on real payloads: the native `snappy@7` binding
 * (`@snappykit/napi`) where it loads, `@snappykit/ts` for small inputs and wherever native
 * code cannot load (musl without a prebuilt binary, Bun without the addon, browsers).
 * @packageDocumentation
 */
import type { RawBackend, SnappyCodec } from "@snappykit/core";
import * as ts from "@snappykit/ts";
import { ownNative } from "./admit.js";
import type { AutoCodec, AutoOptions } from "./auto.js";
import { type NativeResult, route, routeRaw } from "./route.js";

export * from "./auto.js";
export * from "./calibrate.js";
export * from "./crossover.js";

async function loadNative(
  options: AutoOptions,
  tsCodec: Promise<SnappyCodec>,
): Promise<NativeResult> {
  const own = await ownNative(options, tsCodec);
  if (own) return own;
  if (options.native === false) return { reason: "native disabled by options (native: false)" };
  try {
    // Imported on demand: a platform without the prebuilt binary fails here, not at import.
    const napi = await import("@snappykit/napi");
    const [codec, raw] = await Promise.all([napi.createCodec(), napi.createRaw()]);
    return { codec, raw };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { reason: `native unavailable, using @snappykit/ts for every call: ${detail}` };
  }
}

/**
 * Create the routing codec. Never rejects for a missing native binding: it falls back to
 * `@snappykit/ts` and says so in `describe().reason`.
 * @throws SnappyError `INVALID_ARGUMENT` for a threshold that is not a non-negative integer
 *   or `null`, or a `native` codec of your own that fails a conformance check; `UNSUPPORTED`
 *   for such a codec without `@snappykit/conformance` installed.
 */
export async function createCodec(options: AutoOptions = {}): Promise<AutoCodec> {
  const codec = ts.createCodec();
  return route(await codec, await loadNative(options, codec), options);
}

/** The raw backends behind the same routing, for the bench and the fuzzer: no guards. */
export async function createRaw(options: AutoOptions = {}): Promise<RawBackend> {
  const [raw, native] = await Promise.all([ts.createRaw(), loadNative(options, ts.createCodec())]);
  return routeRaw(raw, native, options);
}

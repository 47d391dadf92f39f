/**
 * `@snappykit/auto`: one {@link SnappyCodec} that sends each call to the fastest codec for
 * its size, using crossover sizes measured on real payloads: the native `snappy@7` binding
 * (`@snappykit/napi`) where it loads, `@snappykit/ts` for small inputs and wherever native
 * code cannot load (musl without a prebuilt binary, Bun without the addon, browsers).
 * @packageDocumentation
 */
import * as ts from "@snappykit/ts";
import type { AutoCodec, AutoOptions } from "./auto.js";
import { loadNative } from "./native.js";
import { route } from "./route.js";

export * from "./auto.js";
export * from "./calibrate.js";
export * from "./crossover.js";

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

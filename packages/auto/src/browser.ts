// The browser build (package.json "browser" condition): the same codec without ever
// importing the native binding, so bundlers do not pull Node-only code in.
import * as ts from "@snappykit/ts";
import { NO_NATIVE, ownNative } from "./admit.js";
import type { AutoCodec, AutoOptions } from "./auto.js";
import { route } from "./route.js";

export * from "./auto.js";
export * from "./calibrate.js";
export * from "./crossover.js";

/**
 * {@link AutoCodec} over `@snappykit/ts` alone (no native code in a browser), or with a
 * codec of your own (`native`) once it passes the conformance checks.
 */
export async function createCodec(options: AutoOptions = {}): Promise<AutoCodec> {
  const codec = ts.createCodec();
  return route(await codec, (await ownNative(options, codec)) ?? NO_NATIVE, options);
}

// The browser build (package.json "browser" condition): the same codec without ever
// importing the native binding, so bundlers do not pull Node-only code in.
import type { RawBackend } from "@snappykit/core";
import * as ts from "@snappykit/ts";
import type { AutoCodec, AutoOptions } from "./auto.js";
import { route, routeRaw } from "./route.js";

export * from "./auto.js";
export * from "./calibrate.js";

const NO_NATIVE = { reason: "browser build: no native code, @snappykit/ts for every call" };

/** {@link AutoCodec} over `@snappykit/ts` alone (no native code in a browser). */
export async function createCodec(options: AutoOptions = {}): Promise<AutoCodec> {
  return route(await ts.createCodec(), NO_NATIVE, options);
}

/** The raw ts functions, for the bench. */
export async function createRaw(options: AutoOptions = {}): Promise<RawBackend> {
  return routeRaw(await ts.createRaw(), NO_NATIVE, options);
}

// The `./raw` entry's browser build (the "browser" export condition).
import type { RawBackend } from "@snappykit/core";
import * as ts from "@snappykit/ts";
import { createRaw as tsRaw } from "@snappykit/ts/raw";
import { NO_NATIVE, ownNative } from "./admit.js";
import type { AutoOptions } from "./auto.js";
import { routeRaw } from "./route.js";

/** The raw ts functions, for the bench. */
export async function createRaw(options: AutoOptions = {}): Promise<RawBackend> {
  const native = (await ownNative(options, ts.createCodec())) ?? NO_NATIVE;
  return routeRaw(await tsRaw(), native, options);
}

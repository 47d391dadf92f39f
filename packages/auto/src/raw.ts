import type { RawBackend } from "@snappykit/core";
import * as ts from "@snappykit/ts";
import { createRaw as tsRaw } from "@snappykit/ts/raw";
import type { AutoOptions } from "./auto.js";
import { loadNative } from "./native.js";
import { routeRaw } from "./route.js";

/** The raw backends behind the same routing, for the bench and the fuzzer: no guards. */
export async function createRaw(options: AutoOptions = {}): Promise<RawBackend> {
  const [raw, native] = await Promise.all([tsRaw(), loadNative(options, ts.createCodec(), true)]);
  return routeRaw(raw, native, options);
}

// The `./raw` entry's browser build (the "browser" export condition).
import type { RawBackend } from "@snappykit/core";
import { library, load } from "./browser-load.js";
import { rawOver } from "./codec.js";

/** The Node entry's raw backend over the browser build. */
export async function createRaw(): Promise<RawBackend> {
  return rawOver({ module: await load(), library });
}

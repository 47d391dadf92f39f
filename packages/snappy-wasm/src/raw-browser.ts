// The `./raw` entry's browser build (the "browser" export condition).
import type { RawBackend } from "@snappykit/core";
import { backend, initOnce, library } from "./browser-load.js";
import { rawOver } from "./codec.js";

/** The Node entry's raw backend (no length guard), after the same `init()`. */
export async function createRaw(): Promise<RawBackend> {
  await initOnce();
  return rawOver({ module: backend, library });
}

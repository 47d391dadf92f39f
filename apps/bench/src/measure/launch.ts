// Getting the run's runtime ready before anything is timed, in the bench's own process: a
// process runtime (runtime.ts), or Chromium launched for `--runtime browser`. Apart from
// runtime.ts, which every fork imports: a fork must not load Playwright and esbuild (2.4 s
// and 140 MB more per child on this VM).
import { launchChromium } from "@snappykit/workspace/chromium";
import type { Browser } from "playwright-core";
import type { RuntimeName } from "../model/options.js";
import { type ForkRuntime, MissingRuntimeError, processRuntime } from "./runtime.js";

/** A runtime ready for the forks: a process runtime, or a launched Chromium for pages. */
export interface OpenRuntime extends ForkRuntime {
  readonly browser?: Browser;
  close(): Promise<void>;
}

/**
 * Get `name` ready before anything is timed, so a runtime that is not installed fails
 * now: Bun and Deno answer `--version`, Chromium launches (apt-installed when missing).
 */
export async function openRuntime(
  name: RuntimeName,
  log: (line: string) => void,
  fallBack = false,
): Promise<OpenRuntime> {
  if (name !== "browser") {
    try {
      return { ...processRuntime(name), close: async () => {} };
    } catch (error) {
      // Without --runtime, a missing default line is not the user's mistake: time in this
      // Node, and say so (the report names the runtime either way).
      if (!fallBack || !(error instanceof MissingRuntimeError)) throw error;
      log(`warning: ${error.message}; timing in this Node (${process.version}) instead`);
      return { ...processRuntime("node"), close: async () => {} };
    }
  }
  const browser = await launchChromium(log);
  return { name, version: browser.version(), browser, close: () => browser.close() };
}

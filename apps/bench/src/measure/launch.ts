// Getting the run's runtime ready before anything is timed, in the bench's own process: a
// process runtime (runtime.ts), or Chromium launched for `--runtime browser`. Apart from
// runtime.ts, which every fork imports: a fork must not load Playwright and esbuild (2.4 s
// and 140 MB more per child on this VM).
import { launchChromium } from "@snappykit/workspace/chromium";
import type { Browser } from "playwright-core";
import type { RuntimeName } from "../model/options.js";
import { type ForkRuntime, processRuntime } from "./runtime.js";

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
): Promise<OpenRuntime> {
  if (name !== "browser") return { ...processRuntime(name), close: async () => {} };
  const browser = await launchChromium(log);
  return { name, version: browser.version(), browser, close: () => browser.close() };
}

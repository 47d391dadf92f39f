// The machine and software a run measured: without it a number cannot be compared. The
// machine is described as the fuzzer describes it (@snappykit/workspace/environment).
import os from "node:os";
import { gitCommit, machine, measuredTrees } from "@snappykit/workspace/environment";
import type { Environment, MachineLoad } from "../model/report.js";
import { forkEnv } from "./fork.js";

/** The load average now (1, 5, 15 min), rounded; null where there is none (Windows: zeros). */
export function loadNow(): [number, number, number] | null {
  if (process.platform === "win32") return null;
  const [a, b, c] = os.loadavg().map((x) => Math.round(x * 100) / 100);
  return [a!, b!, c!];
}

/** The run's load so far: `start` as recorded, the end now. */
export const withEndLoad = (load: MachineLoad | undefined): MachineLoad | undefined =>
  load && { ...load, end: loadNow() };

/** Describe this process's machine; `libraries` maps codec ids to loaded libraries. */
export function collectEnvironment(
  repoRoot: string,
  libraries: Record<string, string>,
  runtime: { readonly name: string; readonly version: string },
): Environment {
  return {
    date: new Date().toISOString(),
    ...machine(),
    commit: gitCommit(repoRoot),
    measured: measuredTrees("@snappykit/bench", Object.keys(libraries), repoRoot),
    libraries,
    exposeGc: typeof (globalThis as { gc?: unknown }).gc === "function",
    // Chromium pages are not processes the bench starts: no tunables reach them.
    ...(runtime.name !== "browser" && { glibcTunables: forkEnv().GLIBC_TUNABLES }),
    runtime: { name: runtime.name, version: runtime.version },
    load: { cores: machine().cores, start: loadNow() },
  };
}

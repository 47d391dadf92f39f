// `--runtime`: which program a fork runs in. The forks speak the same JSON-lines protocol
// (fork.ts) whatever runs them; the Node LTS lines are the `node` packages pinned in
// tools/node-lines (@snappykit/workspace/node-lines); Bun and Deno are the versions pinned
// in the root package.json, run from its node_modules/.bin; a browser's forks are Chromium
// pages (browser.ts, launched by launch.ts). Another runtime is one more case here and a name
// in model/options.ts RUNTIMES. Every fork imports this file (fork.ts), so it stays light:
// nothing of Chromium.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "@snappykit/workspace";
import { isNodeLine, nodeLineBinary } from "@snappykit/workspace/node-lines";
import type { RuntimeName } from "../model/options.js";

/** The program and flags a fork is started with (the child script and its argument follow). */
export interface ForkCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/** A runtime the forks run in: its name, version and how to start a fork in it. */
export interface ForkRuntime {
  readonly name: RuntimeName;
  readonly version: string;
  /** Undefined for the browser, whose forks are pages, not processes. */
  readonly command?: ForkCommand;
}

/** This Node, with a callable gc() for the allocation figures. */
export const NODE_RUNTIME: ForkRuntime = {
  name: "node",
  version: process.versions.node,
  command: { file: process.execPath, args: ["--expose-gc"] },
};

/** A child's entry script, built beside this file (vitest runs this module from src/). */
export const childScript = (file: string): string =>
  fileURLToPath(
    new URL(
      import.meta.url.endsWith(".ts") ? `../../dist/measure/${file}` : `./${file}`,
      import.meta.url,
    ),
  );

const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);

/** A runtime that is not installed where the run looks for it. */
export class MissingRuntimeError extends Error {
  override readonly name = "MissingRuntimeError";
}

/** Describe the runtime `name` for forks that are processes (node, a Node line, bun, deno). */
export function processRuntime(name: Exclude<RuntimeName, "browser">): ForkRuntime {
  if (name === "node") return NODE_RUNTIME;
  const file = isNodeLine(name) ? nodeLineBinary(name) : bin(name);
  let version: string;
  try {
    // "v24.21.0" from node, "1.4.5" from bun, "deno 2.9.6 (stable, ...)" then V8 and
    // TypeScript lines from deno.
    const out = execFileSync(file, ["--version"], { encoding: "utf8" });
    version = /(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? out.trim();
  } catch (error) {
    throw new MissingRuntimeError(
      `${name} is not installed at ${file} (npm run setup installs it): ${(error as Error).message.split("\n")[0]}`,
    );
  }
  // A Node line runs the forks as this Node does, with gc() for the allocation figures.
  if (isNodeLine(name)) return { name, version, command: { file, args: ["--expose-gc"] } };
  // No gc() for Bun: its node:v8 heap statistics (JavaScriptCore underneath) stay put while
  // a batch allocates, so the allocation probe would report 0 B; without gc() the report
  // shows no allocation figures instead. Deno is V8, and its figures are real.
  const args = name === "bun" ? [] : ["run", "-A", "--quiet", "--v8-flags=--expose-gc"];
  return { name, version, command: { file, args } };
}

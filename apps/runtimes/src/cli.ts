#!/usr/bin/env node
// `pnpm test:runtimes`: the conformance checks for every adapter under the Node LTS lines
// (tools/node-lines), Bun, Deno and headless Chromium. Prints one summary line per runtime
// and each adapter's result; exits 1 when an adapter that loads fails a check, or when the
// load matrix differs from what the adapters' package.json say (`snappykit.cannotLoad`) and,
// for a Node line, what scripts/node-addons.mjs could not build for it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { discoverAdapters } from "@snappykit/workspace";
import { launchChromium } from "@snappykit/workspace/chromium";
import {
  addonFailure,
  isNodeLine,
  NODE_LINES,
  type NodeLine,
  nodeLineBinary,
} from "@snappykit/workspace/node-lines";
import { runInPage } from "./browser.js";
import { fixturePayloads } from "./payloads.js";
import { type AdapterResult, FRAMING, type Target } from "./portable.js";
import { type ChildReport, type ExpectedCannotLoad, type Runtime, report } from "./report.js";

const here = dirname(fileURLToPath(import.meta.url));
// Bun and Deno are pinned in the root package.json (the bench forks into them too).
const bin = (name: string) => join(here, "..", "..", "..", "node_modules", ".bin", name);

const RUNTIMES: readonly Runtime[] = [...NODE_LINES, "bun", "deno", "browser"];

/**
 * Every adapter in the workspace, imported from the module its `exports` map gives the
 * runtime: the Node entry for Bun and Deno (neither has an export condition of its own in
 * any adapter), the `browser` one for Chromium.
 */
function adapters(runtime: Runtime): Target[] {
  return discoverAdapters().map(({ id, entry, browserEntry }) => ({
    id,
    module: runtime === "browser" ? browserEntry : pathToFileURL(entry).href,
  }));
}

function runChild(runtime: Exclude<Runtime, "browser">, targets: readonly Target[]) {
  const [file, args] = isNodeLine(runtime)
    ? [nodeLineBinary(runtime), []]
    : [bin(runtime), runtime === "bun" ? ["run"] : ["run", "--allow-all", "--quiet"]];
  const stdout = execFileSync(file, [...args, join(here, "child.js"), JSON.stringify(targets)], {
    encoding: "utf8",
    maxBuffer: 64 * 2 ** 20,
    stdio: ["ignore", "pipe", "inherit"],
    // Each runtime takes seconds; a hang (a worker pool keeping it alive) fails clearly.
    timeout: 5 * 60_000,
  });
  const line = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as ChildReport;
}

async function runBrowser(targets: readonly Target[]) {
  const browser = await launchChromium((line) => console.log(`runtimes: ${line}`));
  try {
    const payloads = fixturePayloads();
    const results: AdapterResult[] = [];
    for (const target of targets) results.push(await runInPage(browser, target, payloads));
    return { runtime: `chromium ${browser.version()}`, results };
  } finally {
    await browser.close();
  }
}

/**
 * Runtime → adapter id → why it cannot load there: from the adapters' package.json, and for
 * a Node line, a native addon among the adapter's dependencies that did not build for it
 * (tools/node-lines/addons.json).
 */
function expectedCannotLoad(): ExpectedCannotLoad {
  const expected: Record<string, Record<string, string>> = {};
  const add = (runtime: string, id: string, reason: string) => {
    expected[runtime] = { ...expected[runtime], [id]: reason };
  };
  for (const { id, metadata, dir } of discoverAdapters()) {
    for (const [runtime, reason] of Object.entries(metadata.cannotLoad ?? {}))
      add(runtime, id, reason);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    for (const line of NODE_LINES) {
      for (const dependency of Object.keys(pkg.dependencies ?? {})) {
        const reason = addonFailure(line as NodeLine, dependency);
        if (reason) add(line, id, reason);
      }
    }
  }
  return expected;
}

async function main(): Promise<number> {
  const expected = expectedCannotLoad();
  const problems: string[] = [];
  for (const name of RUNTIMES) {
    const list = [...adapters(name), FRAMING];
    const result = name === "browser" ? await runBrowser(list) : runChild(name, list);
    problems.push(...report(name, result, expected));
  }
  for (const problem of problems) console.error(`runtimes: ${problem}`);
  return problems.length ? 1 : 0;
}

process.exitCode = await main();

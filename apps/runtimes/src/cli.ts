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
import { provideFfiLibrary } from "@snappykit/workspace/ffi-library";
import {
  addonFailure,
  isNodeLine,
  NODE_LINES,
  nodeLineBinary,
} from "@snappykit/workspace/node-lines";
import { runInPage } from "./browser.js";
import { fixturePayloads } from "./payloads.js";
import { type AdapterResult, PACKAGES, type Target } from "./portable.js";
import { type ChildReport, expectedCannotLoad, type Runtime, report } from "./report.js";

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
  const browser = runtime === "browser";
  return discoverAdapters().map((a) => ({
    id: a.id,
    module: browser ? a.browserEntry : pathToFileURL(a.entry).href,
    raw: browser ? a.browserRawEntry : pathToFileURL(a.rawEntry).href,
  }));
}

function runChild(
  runtime: Exclude<Runtime, "browser">,
  targets: readonly Target[],
  attempt = 1,
): ChildReport {
  const [file, args] = isNodeLine(runtime)
    ? [nodeLineBinary(runtime), []]
    : [bin(runtime), runtime === "bun" ? ["run"] : ["run", "--allow-all", "--quiet"]];
  let stdout: string;
  try {
    stdout = execFileSync(file, [...args, join(here, "child.js"), JSON.stringify(targets)], {
      encoding: "utf8",
      maxBuffer: 64 * 2 ** 20,
      stdio: ["ignore", "pipe", "inherit"],
      // Each runtime takes seconds; a hang (a worker pool keeping it alive) fails clearly.
      timeout: 5 * 60_000,
    });
  } catch (error) {
    // napi-wasi's thread worker (@emnapi/wasi-threads) has crashed the whole process in Node
    // 24 now and then ("memory access out of bounds"), in runs that pass when repeated. A
    // crash is said, with its output above, and the runtime run again; a third crash fails.
    const timedOut = (error as { code?: string }).code === "ETIMEDOUT";
    if (attempt >= 3 || timedOut) throw error;
    console.error(
      `runtimes: ${runtime}: the child process crashed (output above); running it again`,
    );
    return runChild(runtime, targets, attempt + 1);
  }
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

/** Every adapter's declared reasons and dependencies, for {@link expectedCannotLoad}. */
const declared = () =>
  discoverAdapters().map(({ id, metadata, dir }) => ({
    id,
    cannotLoad: metadata.cannotLoad ?? {},
    dependencies: Object.keys(
      JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies ?? {},
    ),
  }));

async function main(): Promise<number> {
  // @snappykit/ffi opens tools/libsnappy's build in every child (the variables it reads).
  const noLibrary = provideFfiLibrary();
  if (noLibrary) console.log(`runtimes: ffi has no libsnappy: ${noLibrary}`);
  const expected = expectedCannotLoad(declared(), NODE_LINES, addonFailure);
  const problems: string[] = [];
  for (const name of RUNTIMES) {
    const list = [...adapters(name), ...PACKAGES];
    const result = name === "browser" ? await runBrowser(list) : runChild(name, list);
    problems.push(...report(name, result, expected));
  }
  for (const problem of problems) console.error(`runtimes: ${problem}`);
  return problems.length ? 1 : 0;
}

process.exitCode = await main();

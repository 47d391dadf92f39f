#!/usr/bin/env node
// `pnpm mutation [ts|framing|core|kernel ...] [--force] [--concurrency N] [--mutate <files>]`:
// StrykerJS on each package's source files (scripts/mutation/config.mjs; --mutate: only the
// comma-separated files given), one package after another; prints each package's mutation
// score and rewrites its section of docs/mutation.md (scripts/mutation/doc.mjs). Ctrl-C keeps
// the results so far in the incremental file: the next run goes on from there. `kernel` (and
// a run of every package, last) is ts's WebAssembly kernel, which StrykerJS cannot mutate:
// scripts/mutation/kernel.mjs (`pnpm mutation:kernel` runs it alone, with its own options).
//
// StrykerJS 10 needs Node >= 22, the workspace runs on Node 20: on an older Node this script
// runs itself again on the Node 22 line of tools/node-lines (installed by `npm run setup`).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { nodeLineBinary } from "@snappykit/workspace/node-lines";

process.chdir(repoRoot);

if (Number(process.versions.node.split(".")[0]) < 22) {
  const node = nodeLineBinary("node22");
  if (!existsSync(node))
    throw new Error(`mutation: StrykerJS needs Node >= 22; ${node} is missing`);
  const { status } = spawnSync(node, process.argv.slice(1), { stdio: "inherit" });
  process.exit(status ?? 1);
}

const { Stryker } = await import("@stryker-mutator/core");
const { mutationConfig, PACKAGES } = await import("./config.mjs");
const { scoreOf, writeDoc } = await import("./doc.mjs");

const argv = process.argv.slice(2);
const option = (name) => {
  const at = argv.indexOf(name);
  return at < 0 ? undefined : argv.splice(at, 2)[1];
};
const force = argv.includes("--force");
const concurrency = option("--concurrency");
// A single line as Stryker's range of one (`file:64` would match no file, silently).
const mutate = option("--mutate")
  ?.split(",")
  .map((file) => file.replace(/^([^:]+):(\d+)$/, "$1:$2-$2"));
const named = argv.filter((arg) => !arg.startsWith("--"));
for (const pkg of named) {
  if (!PACKAGES.includes(pkg) && pkg !== "kernel") {
    throw new Error(`unknown package ${pkg}: one of ${PACKAGES},kernel`);
  }
}
const kernel = named.length === 0 || named.includes("kernel");
const packages = named.length === 0 ? PACKAGES : named.filter((pkg) => pkg !== "kernel");

for (const pkg of packages) {
  const config = mutationConfig(pkg);
  // Results taken from the runs before: those of unchanged mutants, or (with --mutate) of
  // every mutant outside the files or lines given.
  const incremental = (!force || mutate !== undefined) && existsSync(config.incrementalFile);
  const started = Date.now();
  const results = await new Stryker({
    ...config,
    force,
    ...(concurrency && { concurrency: Number(concurrency) }),
    ...(mutate && { mutate }),
  }).runMutationTest();
  const seconds = Math.round((Date.now() - started) / 1000);
  const run = {
    pkg,
    seconds,
    incremental,
    concurrency: Number(concurrency ?? config.concurrency),
    command: `pnpm mutation ${pkg}${force ? " --force" : ""}${mutate ? ` --mutate ${mutate.join(",")}` : ""}`,
  };
  console.log(`mutation: packages/${pkg}/src ${scoreOf(results).text} in ${seconds} s`);
  writeDoc([run]);
}

if (kernel) {
  const { status } = spawnSync(
    process.execPath,
    [
      join(repoRoot, "scripts/mutation/kernel.mjs"),
      ...(force ? ["--force"] : []),
      ...(concurrency ? ["--concurrency", concurrency] : []),
    ],
    { stdio: "inherit" },
  );
  if (status !== 0) process.exit(status ?? 1);
}

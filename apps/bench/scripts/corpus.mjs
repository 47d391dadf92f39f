#!/usr/bin/env node
// The standard Snappy corpus through the bench: google/snappy's testdata (the Canterbury
// texts, html, urls, a JPEG, a PDF, protocol buffers), each file its own payload (`--data`),
// ts against napi. The files are those packages/ts/scripts/corpus.sh fetches (from Debian's
// source package, checked file by file, into a git-ignored cache), or every file of a folder
// you name (`--testdata`, where apt is not at hand). `npm run docs -- --adopt` commits the
// report, which @snappykit/ts's README tables.
//
//   npm run bench:corpus [-- [--testdata <dir>] [bench options, e.g. --quick]]
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { repoRoot } from "@snappykit/workspace";

export const SELECTION = ["--codec", "napi,ts", "--op", "compress,uncompress"];

/** `--testdata <dir>` (or `=dir`) out of the arguments; the rest go to the bench. */
export function splitArgs(argv) {
  const bench = [];
  let testdata;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--testdata") {
      testdata = argv[++i];
      if (testdata === undefined) throw new Error("--testdata needs a folder");
    } else if (arg.startsWith("--testdata=")) testdata = arg.slice("--testdata=".length);
    else bench.push(arg);
  }
  // An empty one would be the current folder, timed file by file.
  if (testdata === "") throw new Error("--testdata needs a folder");
  return { testdata, bench };
}

/**
 * `--data` for every regular file directly in `dir` (hidden ones left out), by name, each
 * as a path from the repository's root, which the bench runs in: the report's command then
 * names no folder of this machine (for a folder inside the repository).
 */
export function dataArgs(dir) {
  let names;
  try {
    names = readdirSync(dir).filter((f) => !f.startsWith(".") && statSync(join(dir, f)).isFile());
  } catch (error) {
    throw new Error(`cannot read ${dir}: ${error.message}`);
  }
  if (names.length === 0) throw new Error(`${dir} holds no file`);
  return names.sort().flatMap((f) => ["--data", relative(repoRoot, join(dir, f))]);
}

/** The folder corpus.sh fills (and prints), fetching the corpus the first time. */
function fetchedCorpus() {
  const run = spawnSync("sh", [join(repoRoot, "packages/ts/scripts/corpus.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.status !== 0) {
    throw new Error(
      "packages/ts/scripts/corpus.sh could not fetch the corpus (it needs Debian's or Ubuntu's apt); give a folder holding google/snappy's testdata with --testdata <dir>",
    );
  }
  return run.stdout.trim();
}

function main() {
  const { testdata, bench } = splitArgs(process.argv.slice(2));
  const dir = testdata === undefined ? fetchedCorpus() : resolve(testdata);
  const args = [
    "--expose-gc",
    "apps/bench/dist/cli.js",
    ...SELECTION,
    ...dataArgs(dir),
    "--out",
    "apps/bench/results/corpus",
    "--format",
    "json,md",
    ...bench,
  ];
  const run = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: "inherit" });
  process.exit(run.status ?? 1);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main();
  } catch (error) {
    console.error(`corpus: ${error.message}`);
    process.exit(2);
  }
}

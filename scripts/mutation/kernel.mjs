#!/usr/bin/env node
// `pnpm mutation:kernel [--force] [--survivors] [--limit N] [--sample N [--seed S]]
// [--concurrency N] [--timeout-factor F]`: mutation tests of ts's WebAssembly kernel
// (packages/ts/src/kernel.wat), which StrykerJS cannot mutate. Each mutant (scripts/mutation/
// wat.mjs) is assembled with the package's own build script (packages/ts/scripts/kernel.mjs)
// and compiled by this Node; one that does not assemble, validate or compile is invalid, not
// killed (ts would fall back to its TypeScript loops without it). A valid one is written, with
// its kernel-binary.ts, into a copy of packages/ts and ts's tests run on it with the kernel
// loaded (kernel.test.ts fails where it does not load).
//
// Tests: every test file but fallback.test.ts (which runs the TypeScript loops with no kernel),
// first the files that test the function the mutant is in, then the rest, each run stopping
// at its first failure. Killed: a test failed (the first failing test is recorded). Timed out:
// the run took longer than the unmutated one times --timeout-factor (default 3) and 20 s, as a
// kernel spinning in a loop does (a WebAssembly loop cannot be interrupted but by ending the
// process). Results are cached in reports/mutation/kernel.cache.json by the mutant's text
// (comments and layout squashed) and the tests' sources: a rerun tests only what changed.
// --survivors retests only the survivors of earlier runs and keeps their kills whatever changed
// since (for tests added to kill survivors; mutants not yet tested stay so); --force retests
// everything. --limit N tests the first N mutants,
// --sample N a random N (reproducible with --seed): a partial run, which the doc says.
// Mutants are tested in a shuffled order, so the results of a run stopped early (Ctrl-C:
// every result so far is in the cache) are a random sample too; --report writes the report
// and the doc from the cache without testing anything.
// Writes reports/mutation/kernel.json (StrykerJS's report format) and the kernel's section
// of docs/mutation.md (scripts/mutation/doc.mjs).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { REPORTS } from "./config.mjs";
import { scoreOf, writeDoc } from "./doc.mjs";
import { applyMutant, canonical, mutantsOf } from "./wat.mjs";

const PKG = join(repoRoot, "packages/ts");
const FILE = "packages/ts/src/kernel.wat";
const CACHE = join(repoRoot, REPORTS, "kernel.cache.json");
const REPORT = join(repoRoot, REPORTS, "kernel.json");
const {
  assemble,
  kernelModule,
  version: wabtVersion,
} = await import(join(PKG, "scripts/kernel.mjs"));

/** The test files run first for a mutant in each function: those that test it most directly. */
const FIRST = {
  fastPath: ["src/fast-path.test.ts", "src/decompress.test.ts"],
  compressBlock: ["src/compress.test.ts"],
};
/** Never run: it tests the TypeScript loops, with the kernel not loaded. */
const WITHOUT_KERNEL = "src/fallback.test.ts";

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at < 0 ? fallback : argv.splice(at, 2)[1];
};
const flag = (name) => argv.includes(name);
const force = flag("--force");
const survivorsOnly = flag("--survivors");
const limit = Number(option("--limit", "0"));
const sample = Number(option("--sample", "0"));
const seed = Number(option("--seed", "1"));
const concurrency = Number(option("--concurrency", "2"));
const timeoutFactor = Number(option("--timeout-factor", "3"));
const reportOnly = flag("--report");

/** A hash of what decides a mutant's result besides its own text: ts's sources and tests. */
function suiteHash() {
  const hash = createHash("sha256");
  for (const dir of ["packages/ts/src", "packages/ts/scripts", "packages/core/src"]) {
    const files = readdirSync(join(repoRoot, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !/kernel(-binary\.ts|\.wat)$/.test(entry.name))
      .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)))
      .sort();
    for (const file of files) hash.update(file).update(readFileSync(join(repoRoot, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * A copy of packages/ts (and the root files its vitest config reads) where one mutant at a
 * time is written; its node_modules link to the checkout's, so the other workspace packages
 * are their builds.
 */
function makeSandbox(n) {
  const dir = join(tmpdir(), `snappykit-kernel-mutation-${process.pid}-${n}`);
  rmSync(dir, { recursive: true, force: true });
  const pkg = join(dir, "packages/ts");
  mkdirSync(pkg, { recursive: true });
  for (const file of ["package.json", "tsconfig.base.json", "vitest.shared.ts"]) {
    cpSync(join(repoRoot, file), join(dir, file));
  }
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"));
  for (const entry of ["src", "scripts", "package.json", "tsconfig.json", "vitest.config.ts"]) {
    cpSync(join(PKG, entry), join(pkg, entry), { recursive: true });
  }
  // The build, unmutated, only so that the package resolves by its name (the conformance
  // suite reads the version it names); the tests import the sources.
  symlinkSync(join(PKG, "dist"), join(pkg, "dist"));
  // Links of their own (not one to the whole directory), so vitest's caches stay per copy:
  // cpSync copies a link as one to the absolute path it resolves to.
  cpSync(join(PKG, "node_modules"), join(pkg, "node_modules"), {
    recursive: true,
    filter: (from) => !basename(from).startsWith("."),
  });
  return { dir, pkg };
}

const VITEST = join(repoRoot, "node_modules/vitest/vitest.mjs");

/** The test runs under way, each in its own process group: ended with this one. */
const running = new Set();
const sandboxes = [];
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const pid of running) process.kill(-pid, "SIGKILL");
    for (const sandbox of sandboxes) rmSync(sandbox.dir, { recursive: true, force: true });
    console.log("mutation: stopped; the results so far are cached (--report writes them)");
    process.exit(130);
  });
}

/**
 * Runs the test files (all of them but WITHOUT_KERNEL when `files` is empty) in the sandbox,
 * stopping at the first failure. Resolves to `{ failed, seconds }` or `{ timedOut }`.
 */
function runTests(sandbox, files, timeoutMs) {
  const out = join(sandbox.dir, "result.json");
  rmSync(out, { force: true });
  const args = [
    VITEST,
    "run",
    ...files,
    "--exclude",
    WITHOUT_KERNEL,
    "--bail=1",
    "--maxWorkers=1",
    "--reporter=json",
    `--outputFile=${out}`,
  ];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: sandbox.pkg,
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
    });
    running.add(child.pid);
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      running.delete(child.pid);
      const seconds = (Date.now() - started) / 1000;
      if (timedOut) return resolve({ timedOut: true, seconds });
      let result;
      try {
        result = JSON.parse(readFileSync(out, "utf8"));
      } catch {
        // No report: vitest itself failed (a crash in a worker counts as a failed test file,
        // reported; this is the runner not starting at all).
        return reject(new Error(`vitest exited ${code} without a report:\n${stderr}`));
      }
      const failedTest = result.testResults
        .flatMap((file) =>
          file.assertionResults
            .filter((test) => test.status === "failed")
            .map((test) => `${relative(sandbox.pkg, file.name)}: ${test.fullName}`),
        )
        .at(0);
      const failedFile = result.testResults.find((file) => file.status === "failed");
      const failed =
        failedTest ??
        (failedFile && `${relative(sandbox.pkg, failedFile.name)}: ${failedFile.message}`);
      if (code !== 0 && !failed) {
        return reject(new Error(`vitest exited ${code} with no failed test:\n${stderr}`));
      }
      resolve({ failed: failed || undefined, seconds });
    });
  });
}

/** The mutant's status: Killed, Timeout or Survived, with the test that killed it. */
async function testMutant(sandbox, wat, mutant, timeouts) {
  writeFileSync(join(sandbox.pkg, "src/kernel.wat"), wat);
  writeFileSync(join(sandbox.pkg, "src/kernel-binary.ts"), await kernelModule(wat));
  const first = FIRST[mutant.func] ?? [];
  for (const [files, timeout] of [
    [first, timeouts.first],
    [[], timeouts.all],
  ]) {
    if (files === first && first.length === 0) continue;
    const run = await runTests(sandbox, files, timeout);
    if (run.timedOut) return { status: "Timeout", statusReason: `over ${timeout / 1000} s` };
    if (run.failed) return { status: "Killed", statusReason: run.failed };
  }
  return { status: "Survived" };
}

/** A reproducible shuffle (mulberry32), for --sample. */
function shuffled(items, seed) {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const source = readFileSync(join(repoRoot, FILE), "utf8");
const suite = suiteHash();
const cache = existsSync(CACHE) ? JSON.parse(readFileSync(CACHE, "utf8")) : {};
const saveCache = () => {
  mkdirSync(dirname(CACHE), { recursive: true });
  writeFileSync(CACHE, `${JSON.stringify(cache, null, 1)}\n`);
};

const all = mutantsOf(source).map((mutant, id) => {
  const wat = applyMutant(source, mutant);
  const key = createHash("sha256").update(canonical(wat)).digest("hex").slice(0, 24);
  return { ...mutant, id: String(id), wat, key };
});
let chosen = all;
if (sample > 0) chosen = shuffled(all, seed).slice(0, sample);
if (limit > 0) chosen = chosen.slice(0, limit);

/** A cached result that still holds: see the header for when one is reused. */
function cached(mutant) {
  const entry = cache[mutant.key];
  if (force || entry === undefined) return undefined;
  if (entry.status === "CompileError") return entry;
  if (entry.suite === suite) return entry;
  if (survivorsOnly && (entry.status === "Killed" || entry.status === "Timeout")) return entry;
  return undefined;
}

const started = Date.now();
const results = new Map();
const pending = [];
for (const mutant of shuffled(chosen, seed)) {
  const hit = cached(mutant);
  if (hit) results.set(mutant.id, hit);
  else if (!reportOnly && (!survivorsOnly || cache[mutant.key]?.status === "Survived")) {
    pending.push(mutant);
  }
}
// Invalid mutants first, here: they need no tests.
const reused = results.size;
const valid = [];
for (const mutant of pending) {
  // One that does not compile here is refused by every runtime.
  let statusReason;
  try {
    if (!WebAssembly.validate(await assemble(mutant.wat)))
      statusReason = "does not compile in Node";
  } catch (error) {
    statusReason = String(error.message).split("\n")[0];
  }
  if (statusReason === undefined) valid.push(mutant);
  else {
    cache[mutant.key] = { status: "CompileError", statusReason };
    results.set(mutant.id, cache[mutant.key]);
  }
}
console.log(
  `mutation: kernel.wat: ${all.length} mutants, ${chosen.length} chosen, ${reused} cached, ${pending.length - valid.length} invalid, ${valid.length} to test (concurrency ${concurrency})`,
);

if (valid.length > 0) {
  for (let n = 0; n < Math.min(concurrency, valid.length); n++) sandboxes.push(makeSandbox(n));
  try {
    // The unmutated kernel must pass, and how long it takes sets the timeouts.
    const dry = sandboxes[0];
    writeFileSync(join(dry.pkg, "src/kernel.wat"), source);
    writeFileSync(join(dry.pkg, "src/kernel-binary.ts"), await kernelModule(source));
    const timeouts = {};
    for (const [name, files] of [
      ["first", [...new Set(Object.values(FIRST).flat())]],
      ["all", []],
    ]) {
      const run = await runTests(dry, files, 600_000);
      console.log(`mutation: unmutated, ${name} files: ${run.seconds.toFixed(1)} s`);
      if (run.timedOut || run.failed) {
        throw new Error(`mutation: the unmutated kernel fails ts's tests: ${run.failed}`);
      }
      timeouts[name] = Math.round(run.seconds * timeoutFactor * 1000 + 20_000);
    }
    console.log(
      `mutation: timeouts ${timeouts.first / 1000} s (first files), ${timeouts.all / 1000} s (all)`,
    );
    let next = 0;
    let done = 0;
    const worker = async (sandbox) => {
      while (next < valid.length) {
        const mutant = valid[next++];
        const result = await testMutant(sandbox, mutant.wat, mutant, timeouts);
        results.set(mutant.id, result);
        cache[mutant.key] = { ...result, suite };
        saveCache();
        done++;
        const line = source.slice(0, mutant.start).split("\n").length;
        console.log(
          `mutation: ${done}/${valid.length} ${result.status.padEnd(8)} kernel.wat:${line} ${mutant.mutatorName} ${mutant.replacement.replace(/\s+/g, " ").slice(0, 80)}`,
        );
      }
    };
    await Promise.all(sandboxes.map(worker));
  } finally {
    saveCache();
    for (const sandbox of sandboxes) rmSync(sandbox.dir, { recursive: true, force: true });
  }
}
saveCache();

/** 1-based line and column of an offset, as StrykerJS's reports give locations. */
function position(offset) {
  const before = source.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1).length + 1 };
}
const tested = chosen.filter((mutant) => results.has(mutant.id));
const partial = tested.length < all.length;
const report = {
  schemaVersion: "2",
  thresholds: { high: 90, low: 85 },
  partial,
  files: {
    [FILE]: {
      language: "wat",
      source,
      // Every mutant, those not tested (a stopped run, --limit, --sample) as Pending: the doc's
      // keys number repeats among all of them, so they do not depend on which were tested.
      mutants: all.map((mutant) => ({
        id: mutant.id,
        mutatorName: mutant.mutatorName,
        replacement: mutant.replacement,
        location: { start: position(mutant.start), end: position(mutant.end) },
        status: results.get(mutant.id)?.status ?? "Pending",
        statusReason: results.get(mutant.id)?.statusReason,
      })),
    },
  },
};
writeFileSync(REPORT, `${JSON.stringify(report, null, 1)}\n`);
const seconds = Math.round((Date.now() - started) / 1000);
const flags = argv.filter((arg) => arg.startsWith("--")).join(" ");
const command = [
  "pnpm mutation:kernel",
  flags,
  limit ? `--limit ${limit}` : "",
  sample ? `--sample ${sample} --seed ${seed}` : "",
]
  .filter(Boolean)
  .join(" ");
console.log(
  `mutation: ${FILE} ${scoreOf(report.files[FILE].mutants).text} of ${tested.length} tested in ${seconds} s`,
);
// --report redraws the section from the cache, keeping the line that names the last run.
writeDoc([
  reportOnly
    ? "kernel"
    : {
        pkg: "kernel",
        seconds,
        incremental: reused > 0,
        concurrency,
        command,
        tool: `wabt ${wabtVersion}`,
      },
]);

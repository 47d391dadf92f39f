#!/usr/bin/env node
// `npm run test:release`: a release of HEAD through a real registry, then installs the way
// users get it (CONTRIBUTING.md, Releasing, says what it checks):
//
//   1. Verdaccio on 127.0.0.1 (lib/registry.mjs), storage in a temp folder, proxying
//      third-party packages from the registry this machine's npm uses.
//   2. In a clone of HEAD, installed with `npm run setup`, the root scripts the release
//      workflow runs (lib/releases.mjs): reports gone stale are refused; a first release of
//      every package, a second of one adapter and its dependents, a canary; then every
//      package as published (npm view, tarball contents, ranges).
//   3. Clean projects in which npm, pnpm, Bun and Deno install from that registry and run
//      lib/consumer-program.mjs (lib/package-managers.mjs).
//   4. The registry stopped and the temp folder removed, also on failure and Ctrl-C.
//
//   node scripts/release-test.mjs [--keep]   (--keep: leave the temp folder to inspect)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverAdapters, repoRoot, workspacePackages } from "@snappykit/workspace";
import { provideFfiLibrary } from "@snappykit/workspace/ffi-library";
import { formatDuration } from "@snappykit/workspace/format";
import { commands, Failure, fail, step } from "./lib/commands.mjs";
import { cleanProjects } from "./lib/package-managers.mjs";
import { startRegistry } from "./lib/registry.mjs";
import * as releases from "./lib/releases.mjs";

const keep = process.argv.includes("--keep");
// @snappykit/ffi, installed in Bun's and Deno's projects, opens this checkout's libsnappy.
provideFfiLibrary();
const started = performance.now();
const work = mkdtempSync(join(tmpdir(), "snappykit-release-"));
const repo = join(work, "repo");
const { run, killAll } = commands(work);
let registry;

async function main() {
  const quietly = async (cmd, ...args) =>
    (await run(cmd, args, { cwd: repoRoot, quiet: true })).trim();
  const sha = await quietly("git", "rev-parse", "HEAD");
  if (await quietly("git", "status", "--porcelain", "--untracked-files=no"))
    console.log(`release-test: testing HEAD ${sha.slice(0, 7)}; uncommitted changes are not in it`);
  const uplink = await quietly("npm", "config", "get", "registry");

  // ---- 1. Verdaccio starts while the clone (2.) installs ----
  [, registry] = await Promise.all([
    step(`clone HEAD (${sha.slice(0, 7)}) and install it`, async () => {
      await run("git", ["clone", "--quiet", "--no-checkout", repoRoot, repo]);
      await run("git", ["checkout", "--quiet", "-B", "release-test", sha], { cwd: repo });
      await run("npm", ["run", "setup"], { cwd: repo, timeout: 300_000 });
    }),
    step(`start Verdaccio on 127.0.0.1, proxying ${uplink}`, () =>
      startRegistry(join(work, "registry"), { uplink }),
    ),
  ]);
  console.log(`   registry at ${registry.url}`);

  // Publishing as CI does: a token for the registry in the user's npmrc.
  const host = registry.url.replace(/^http:/, "");
  const npmrc = join(work, "npmrc");
  writeFileSync(npmrc, `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
  const releaseEnv = {
    ...process.env,
    npm_config_registry: registry.url,
    npm_config_userconfig: npmrc,
    TURBO_TELEMETRY_DISABLED: "1",
  };
  const packages = workspacePackages(repo).filter((p) => p.publishable);
  const adapters = discoverAdapters(repo);
  const clone = {
    dir: repo,
    packages,
    run,
    // Through npm, as the release workflow runs them: npm puts the clone's pinned pnpm on PATH.
    inRepo: (args, timeout) =>
      run("npm", ["run", ...args], { cwd: repo, env: releaseEnv, timeout }),
    env: releaseEnv,
    registry,
  };

  // ---- 2. releases in the clone: refused on stale reports; everything, then one adapter ----
  await step("a library-only change: the docs check passes, version-packages refuses", () =>
    releases.staleReportGate(clone),
  );
  const first = await step("first release: npm run version-packages, npm run release", () =>
    releases.firstRelease(clone),
  );
  const dependedOn = (a) => packages.some((p) => p.pkg.dependencies?.[a.packageName]);
  const changed = adapters.find(dependedOn);
  if (!changed)
    throw new Failure("second release: no adapter has a dependent to check the bump with");
  const latest = await step(`second release: a change to ${changed.packageName} only`, () =>
    releases.secondRelease(clone, changed, first),
  );
  await step(`snapshot: npm run release:canary (${changed.packageName})`, () =>
    releases.canaryRelease(clone, changed, latest),
  );

  // ---- every package as published (2.), and 3. clean projects that install them ----
  const clean = cleanProjects({ work, registry: registry.url, latest, packages, adapters, run });
  // Both run to the end, so a broken package shows what users would meet, too.
  const settled = await Promise.allSettled([
    step("every package as published: npm view, tarball contents, ranges", () =>
      releases.checkPublished(clone, latest),
    ),
    step(`clean projects: ${clean.labels.join("; ")}`, async () => fail(await clean.check())),
  ]);
  const failures = settled.filter((r) => r.status === "rejected").map((r) => r.reason);
  if (failures.length > 0) {
    throw new Failure(failures.map((e) => (e instanceof Failure ? e.message : e.stack)).join("\n"));
  }
}

let exitCode = 0;
let cleaning;
const cleanup = () => {
  cleaning ??= (async () => {
    killAll();
    await registry?.stop().catch(() => {});
    if (keep) console.error(`(temporary folder kept at ${work})`);
    else rmSync(work, { recursive: true, force: true, maxRetries: 5 });
  })();
  return cleaning;
};
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    if (cleaning) return; // a second Ctrl-C while stopping
    console.error(`\nrelease-test: ${signal}: stopping the registry and every command`);
    await cleanup();
    process.exit(130);
  });
}
try {
  await main();
} catch (error) {
  exitCode = 1;
  if (!cleaning) {
    console.error(
      `\nrelease-test FAILED: ${error instanceof Failure ? error.message : error.stack}`,
    );
    // Warnings and errors only: an uplink that failed, a publish it refused.
    const log = registry ? readFileSync(registry.log, "utf8").trim().split("\n").slice(-20) : [];
    if (log.join("")) console.error(`\nVerdaccio's log, last lines:\n  ${log.join("\n  ")}`);
  }
} finally {
  await cleanup();
}
const took = formatDuration(performance.now() - started);
console.log(`\nrelease-test: ${exitCode === 0 ? "passed" : "failed"} in ${took}, cleanup included`);
process.exit(exitCode);

#!/usr/bin/env node
// `npm run test:release`: a release through a real registry, then installs the way users get it.
//
//   1. Starts Verdaccio on 127.0.0.1 (scripts/lib/registry.mjs), storage in a temp folder,
//      proxying third-party packages from the registry this machine's npm uses.
//   2. Clones HEAD into the temp folder and installs it (`npm run setup`). There, with the
//      root scripts the release workflow runs (`npm run version-packages`, `npm run release`):
//      - a stale report: with the reports stamped as measured at HEAD, a commit changing only a
//        measured package's source passes the docs check `npm test` runs and makes
//        `version-packages` refuse (`bench docs --stale`, apps/bench/src/docs/stale.js);
//      - first release: a changeset for every publishable package; all are published, each
//        `latest` is the version changesets wrote, and a git tag names it;
//      - second release: a change to one adapter that others depend on, bumped past their
//        ranges: only it and its dependents get new versions, and the dependents' published
//        ranges take the new one;
//      - a snapshot (`npm run release:canary`): published under the `canary` dist-tag, `latest`
//        unmoved.
//      Every published package: what `npm view` shows (description, license,
//      repository.directory, engines, exports, types) matches the workspace, the tarball
//      carries every file the manifest points at, and no `workspace:` range is left.
//   3. In clean projects outside the workspace, npm, pnpm, Bun and Deno (`npm:` specifiers)
//      install `@snappykit/framing` and every adapter (from @snappykit/workspace, so `auto`
//      too) from that registry, and scripts/lib/consumer-program.mjs round-trips a payload
//      through each and feeds it hostile input, in Node, Bun and Deno. An adapter whose
//      package.json says it cannot load in a runtime (`snappykit.cannotLoad`) is left out
//      there, with the reason printed. The installed @snappykit manifests must hold no
//      `workspace:` range, be `latest`, once. The npm project also installs every other
//      package, imports every entrypoint and type-checks them (tsc, NodeNext); a second one
//      installs `@snappykit/auto` alone and must need no install script.
//   4. Stops the registry and removes the temp folder, also on failure and Ctrl-C.
//
//   node scripts/release-test.mjs [--keep]   (--keep: leave the temp folder to inspect)
//
// The pieces are in scripts/lib: commands.mjs (commands and steps), registry.mjs,
// releases.mjs (step 2), package-managers.mjs (step 3).
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

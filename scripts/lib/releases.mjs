// The releases `pnpm test:release` (scripts/release-test.mjs) makes in its clone of the
// repository, each with the root scripts the release workflow runs, and what each must leave
// on the registry (the checks are in release-checks.mjs).
//
// `clone` is { dir, packages (the publishable ones), run, inRepo (`npm run` in the clone,
// publishing to the registry), env (inRepo's environment), registry (registry.mjs) }.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { reportFiles } from "@snappykit/workspace/environment";
import semver from "semver";
import { fail } from "./commands.mjs";
import * as checks from "./release-checks.mjs";

/** name → version, as the clone's package.json files say now. */
const versionsInClone = (packages) =>
  Object.fromEntries(
    packages.map((p) => [p.name, JSON.parse(readFileSync(join(p.dir, "package.json"))).version]),
  );

/** Writes a changeset of `bumps` (name → patch, minor, major), then runs `script` in the clone. */
async function release(clone, file, bumps, script, timeout) {
  const front = Object.entries(bumps).map(([name, bump]) => `"${name}": ${bump}`);
  const text = `---\n${front.join("\n")}\n---\n\nRelease test: ${file}.\n`;
  writeFileSync(join(clone.dir, ".changeset", `release-test-${file}.md`), text);
  if (script === "release") await clone.inRepo(["version-packages"]);
  await clone.inRepo([script], timeout ?? 300_000);
}

const git = (clone, ...args) => clone.run("git", args, { cwd: clone.dir, quiet: true });
const names = (clone) => clone.packages.map((p) => p.name);
/** Problems `cond` is false for, as a list. */
const unless = (cond, problem) => (cond ? [] : [problem]);

/**
 * The clone's reports stamped as measured at its HEAD (the test cannot measure again, so the
 * docs are regenerated from them), then a commit that changes only a measured package's
 * source: the docs check `npm test` runs (`bench docs --check`, the only part of it that reads
 * reports) passes, and `npm run version-packages` refuses the release, naming the stale
 * report. The change is dropped again.
 */
export async function staleReportGate(clone) {
  const head = (await git(clone, "rev-parse", "HEAD")).trim();
  for (const file of reportFiles(clone.dir)) {
    const path = join(clone.dir, file);
    const report = JSON.parse(readFileSync(path, "utf8"));
    const measured = report.environment?.measured ?? report.measured;
    Object.assign(measured, { commit: head, dirty: false });
    for (const dir of Object.keys(measured.trees))
      measured.trees[dir] = (await git(clone, "rev-parse", `HEAD:${dir}`)).trim();
    writeFileSync(path, JSON.stringify(report));
  }
  const commit = (subject) =>
    git(clone, "-c", "user.name=release-test", "-c", "user.email=t@t", "commit", "-qam", subject);
  // The clone's first bench build (npm run docs builds it and its dependencies) took ~3 min
  // on a loaded 2-core machine, past run()'s default of 240 s.
  await clone.inRepo(["docs"], 600_000);
  await commit("release-test: reports as if measured at HEAD");
  appendFileSync(join(clone.dir, "packages/core/src/index.ts"), "\n// release-test\n");
  await commit("core: a source change the reports did not measure");
  const failure = (args, timeout) =>
    clone.inRepo(args, timeout).then(
      () => null,
      (error) => String(error.message),
    );
  const checked = await failure(["docs", "--", "--check"], 600_000);
  const refused = await failure(["version-packages"]);
  await git(clone, "reset", "--quiet", "--hard", "HEAD~1");
  fail([
    ...unless(!checked, `the docs check failed on a library-only change: ${checked}`),
    ...unless(
      refused?.includes("is stale: changed since it was measured: packages/core"),
      `version-packages ${refused ? `failed otherwise: ${refused}` : "took stale reports"}`,
    ),
  ]);
}

/**
 * Every package, patch-bumped: each `latest` is the version changesets wrote, and a git tag
 * names it. Returns name → latest.
 */
export async function firstRelease(clone) {
  const all = names(clone);
  await release(clone, "first", Object.fromEntries(all.map((n) => [n, "patch"])), "release");
  const versions = versionsInClone(clone.packages);
  const latest = await clone.registry.latestOf(all);
  const tags = (await git(clone, "tag", "--list")).split("\n");
  fail(
    all.flatMap((n) => [
      ...unless(
        latest[n] === versions[n],
        `${n}: latest is ${latest[n]}, changesets wrote ${versions[n]}`,
      ),
      ...unless(tags.includes(`${n}@${versions[n]}`), `${n}: no git tag ${n}@${versions[n]}`),
    ]),
  );
  console.log(
    `   published ${all.length} packages: ${all.map((n) => `${n}@${latest[n]}`).join(", ")}`,
  );
  return latest;
}

/**
 * A change to the adapter `changed` only, after the release `first` (name → latest): only it
 * and its dependents get new versions, and the dependents' published ranges take the new one.
 * Returns name → latest.
 */
export async function secondRelease(clone, changed, first) {
  const all = names(clone);
  const name = changed.packageName;
  const mark = "<!-- release-test: second release -->";
  appendFileSync(join(changed.dir, "README.md"), `\n${mark}\n`);
  // A bump its dependents' `workspace:^` ranges do not admit (in 0.x a minor), so they must
  // be released too.
  const bump = semver.major(first[name]) === 0 ? "minor" : "major";
  await release(clone, "second", { [name]: bump }, "release");
  const latest = await clone.registry.latestOf(all);
  const manifests = Object.fromEntries(
    await Promise.all(
      all.map(async (n) => [n, (await clone.registry.packument(n)).versions[latest[n]]]),
    ),
  );
  const tarball = await clone.registry.tarballOf(name, latest[name]);
  const readme = await clone.run("tar", ["-xzOf", tarball, "package/README.md"], { quiet: true });
  fail([
    ...checks.releaseProblems({ changed: name, before: first, after: latest, manifests }),
    ...unless(readme.includes(mark), `${name}: the new tarball lacks the change`),
  ]);
  const moved = all.filter((n) => latest[n] !== first[n]);
  console.log(
    `   released ${moved.map((n) => `${n} ${first[n]} → ${latest[n]}`).join(", ")}; nothing else moved`,
  );
  return latest;
}

/** A snapshot of `changed` under the `canary` dist-tag: `latest` (name → version) unmoved. */
export async function canaryRelease(clone, changed, latest) {
  const before = versionsInClone(clone.packages);
  await release(clone, "canary", { [changed.packageName]: "patch" }, "release:canary");
  const after = versionsInClone(clone.packages);
  const canary = Object.fromEntries(
    names(clone)
      .filter((n) => after[n] !== before[n])
      .map((n) => [n, after[n]]),
  );
  const distTags = await clone.registry.distTags(names(clone));
  fail(checks.snapshotProblems({ tag: "canary", canary, latest, distTags }));
  const list = Object.entries(canary).map(([n, v]) => `${n}@${v}`);
  console.log(`   canary: ${list.join(", ")}; latest unmoved`);
}

/**
 * What users see of every package at `latest` (name → version): what `npm view` shows matches
 * the workspace, the tarball carries every file the manifest points at (publint's errors), no
 * `workspace:` range.
 */
export async function checkPublished(clone, latest) {
  const problems = Readable.from(clone.packages).map(
    async (p) => {
      const version = latest[p.name];
      const quiet = { env: clone.env, quiet: true };
      const view = JSON.parse(
        await clone.run("npm", ["view", `${p.name}@${version}`, "--json"], quiet),
      );
      const tarball = await clone.registry.tarballOf(p.name, version);
      return [
        ...checks.metadataProblems(view, p.pkg, p.relDir),
        ...(await checks.tarballLint(tarball, "error")),
        ...checks.unpublishableRanges(view),
      ].map((m) => `${p.name}@${version}: ${m}`);
    },
    { concurrency: 4 },
  );
  fail((await problems.toArray()).flat());
}

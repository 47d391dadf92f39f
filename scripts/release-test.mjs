#!/usr/bin/env node
// `npm run test:release`: a release through a real registry, then installs the way users get it.
//
//   1. Starts Verdaccio on 127.0.0.1 (scripts/lib/registry.mjs), storage in a temp folder,
//      proxying third-party packages from the registry this machine's npm uses.
//   2. Clones HEAD into the temp folder and installs it (`npm run setup`). There, with the
//      root scripts the release workflow runs (`npm run version-packages`, `npm run release`):
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
// snappy@6 (@snappykit/libsnappy) compiles with node-gyp when installed: npm and pnpm get
// npm_config_nodedir (this Node's headers, as scripts/setup.sh does) and pnpm an `allowBuilds`
// entry, as a user must. Bun and Deno cannot load it (its cannotLoad), so they skip it.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { discoverAdapters, repoRoot, workspacePackages } from "@snappykit/workspace";
import { formatDuration } from "@snappykit/workspace/format";
import semver from "semver";
import { entrypoints, programArgs, programFailures, tsc, writeTypeCheck } from "./lib/consumer.mjs";
import { mapLimit } from "./lib/pack.mjs";
import { startRegistry } from "./lib/registry.mjs";
import {
  installedProblems,
  metadataProblems,
  missingFiles,
  releaseProblems,
  snapshotProblems,
  unpublishableRanges,
} from "./lib/release-checks.mjs";

const keep = process.argv.includes("--keep");
const started = performance.now();
const require = createRequire(join(repoRoot, "package.json"));
const bin = (name) => join(repoRoot, "node_modules", ".bin", name);
const nodedir = process.env.npm_config_nodedir ?? dirname(dirname(process.execPath));

const work = mkdtempSync(join(tmpdir(), "snappykit-release-"));
const repo = join(work, "repo");
const show = (text) => text.replaceAll(work, "$TMP");

// ---- processes: every child leads a session of its own, killed whole on failure and Ctrl-C --

const children = new Set();
/**
 * Kills every process in `child`'s session: its process group is not enough, since turbo
 * puts each task (tsc, ...) in a group of its own.
 */
function killSession(child) {
  const pids = new Set([child.pid]);
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      // Field 6 of /proc/<pid>/stat, counted after the ")" that closes the command name.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]) === child.pid) {
        pids.add(Number(pid));
      }
    } catch {}
  }
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
}
const killAll = () => children.forEach(killSession);

/** A failed check: where (manager, package, step) and why. */
class Failure extends Error {}

/** Runs a command; resolves with its output, rejects with the command and its output's end. */
function run(cmd, args, { cwd, env = process.env, timeout = 240_000, label, quiet } = {}) {
  if (!quiet) {
    const line = show([cmd.replace(repoRoot, "."), ...args].join(" "));
    console.log(
      `${label ? `[${label}] ` : ""}$ ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`,
    );
  }
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killSession(child);
    }, timeout);
    child.on("error", (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) return resolve(output);
      const why = timedOut ? `timed out after ${timeout / 1000} s` : `exited ${code ?? signal}`;
      const tail = show(output).trimEnd().split("\n").slice(-40).join("\n  ");
      reject(
        Object.assign(new Error(`${show(`${cmd} ${args.join(" ")}`)} ${why}\n  ${tail}`), {
          output,
        }),
      );
    });
  });
}

/** Runs `fn` as the named step: a failure inside says which step it was. */
async function step(name, fn) {
  const t = performance.now();
  console.log(`\n== ${name}`);
  try {
    const result = await fn();
    console.log(`   (${formatDuration(performance.now() - t)})`);
    return result;
  } catch (error) {
    throw new Failure(`${name}: ${error.message}`);
  }
}

const fail = (problems) => {
  if (problems.length > 0) throw new Failure(`\n  ${problems.join("\n  ")}`);
};

// ---- the registry ----------------------------------------------------------------------------

let registry;
const packument = async (name) => {
  const response = await fetch(`${registry.url}${name.replace("/", "%2f")}`);
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`GET ${name}: HTTP ${response.status}`);
  return response.json();
};
const distTags = async (names) =>
  Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, (await packument(n))?.["dist-tags"] ?? {}])),
  );
/** Downloads `name@version`'s tarball from the registry; returns its path. */
const tarballOf = async (name, version) => {
  const { dist } = (await packument(name)).versions[version];
  const file = join(work, "tarballs", `${name.replace("/", "-")}-${version}.tgz`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, Buffer.from(await (await fetch(dist.tarball)).arrayBuffer()));
  return file;
};
const latestOf = async (names) =>
  Object.fromEntries(Object.entries(await distTags(names)).map(([n, tags]) => [n, tags.latest]));

// ---- the clone and its releases ----------------------------------------------------------------

/** name → version, as the clone's package.json files say now. */
const versionsInClone = (packages) =>
  Object.fromEntries(
    packages.map((p) => [
      p.name,
      JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8")).version,
    ]),
  );

const writeChangeset = (file, bumps, summary) =>
  writeFileSync(
    join(repo, ".changeset", file),
    `---\n${Object.entries(bumps)
      .map(([name, bump]) => `"${name}": ${bump}`)
      .join("\n")}\n---\n\n${summary}\n`,
  );

// ---- consumers -----------------------------------------------------------------------------------

/**
 * Every @snappykit package under `dir`'s node_modules, once per copy on disk: npm's nested
 * copies, pnpm's .pnpm and Deno's .deno folders count, the links to them do not.
 */
function installedManifests(dir) {
  const found = new Map();
  const dirs = (d) =>
    existsSync(d)
      ? readdirSync(d, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => e.name)
      : [];
  /** A node_modules folder: packages, scopes, and pnpm's or Deno's store of them. */
  const visit = (nm) => {
    for (const name of existsSync(nm) ? readdirSync(nm) : []) {
      const path = join(nm, name);
      if (name === "@snappykit") {
        for (const pkg of readdirSync(path)) {
          const real = realpathSync(join(path, pkg));
          const file = join(real, "package.json");
          if (!found.has(real) && existsSync(file)) {
            const manifest = JSON.parse(readFileSync(file, "utf8"));
            found.set(real, { path: relative(dir, file), manifest });
          }
        }
      }
      const packages = name.startsWith("@") ? dirs(path).map((p) => join(path, p)) : [path];
      const store = name === ".pnpm" || name === ".deno";
      for (const pkg of store ? dirs(path).map((p) => join(path, p)) : packages) {
        visit(join(pkg, "node_modules"));
      }
    }
  };
  visit(join(dir, "node_modules"));
  return [...found.values()];
}

// ---- main --------------------------------------------------------------------------------------

async function main() {
  const sha = (await run("git", ["rev-parse", "HEAD"], { cwd: repoRoot, quiet: true })).trim();
  const dirty = (
    await run("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: repoRoot,
      quiet: true,
    })
  ).trim();
  if (dirty)
    console.log(`release-test: testing HEAD ${sha.slice(0, 7)}; uncommitted changes are not in it`);
  const uplink = (await run("npm", ["config", "get", "registry"], { quiet: true })).trim();

  // The registry starts while the clone installs.
  const [, reg] = await Promise.all([
    step(`clone HEAD (${sha.slice(0, 7)}) and install it`, async () => {
      await run("git", ["clone", "--quiet", "--no-checkout", repoRoot, repo]);
      await run("git", ["checkout", "--quiet", "-B", "release-test", sha], { cwd: repo });
      await run("npm", ["run", "setup"], { cwd: repo, timeout: 300_000 });
    }),
    step(`start Verdaccio on 127.0.0.1, proxying ${uplink}`, () =>
      startRegistry(join(work, "registry"), { uplink }),
    ),
  ]);
  registry = reg;
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
  // Through npm, as the release workflow runs them: npm puts the clone's pinned pnpm on PATH.
  const inRepo = (args, timeout) =>
    run("npm", ["run", ...args], { cwd: repo, env: releaseEnv, timeout });

  const packages = workspacePackages(repo).filter((p) => p.publishable);
  const names = packages.map((p) => p.name);
  const adapters = discoverAdapters(repo);

  // ---- 1. first release: everything ----
  const first = await step("first release: npm run version-packages, npm run release", async () => {
    writeChangeset(
      "release-test-first.md",
      Object.fromEntries(names.map((n) => [n, "patch"])),
      "Release test: every package through a local registry.",
    );
    await inRepo(["version-packages"]);
    const versions = versionsInClone(packages);
    await inRepo(["release"], 300_000);
    const latest = await latestOf(names);
    const tags = (await run("git", ["tag", "--list"], { cwd: repo, quiet: true })).split("\n");
    fail(
      names.flatMap((n) => [
        ...(latest[n] === versions[n]
          ? []
          : [`${n}: latest is ${latest[n]}, changesets wrote ${versions[n]}`]),
        ...(tags.includes(`${n}@${versions[n]}`) ? [] : [`${n}: no git tag ${n}@${versions[n]}`]),
      ]),
    );
    console.log(
      `   published ${names.length} packages: ${names.map((n) => `${n}@${latest[n]}`).join(", ")}`,
    );
    return latest;
  });

  // ---- 2. second release: one adapter that others depend on ----
  const dependedOn = (a) => packages.some((p) => p.pkg.dependencies?.[a.packageName]);
  const changed = adapters.find(dependedOn);
  if (!changed)
    throw new Failure("second release: no adapter has a dependent to check the bump with");
  const second = await step(`second release: a change to ${changed.packageName} only`, async () => {
    // A bump its dependents' `workspace:^` ranges do not admit (in 0.x a minor), so they must
    // be released too.
    const bump = semver.major(first[changed.packageName]) === 0 ? "minor" : "major";
    writeChangeset(
      "release-test-second.md",
      { [changed.packageName]: bump },
      "Release test: a second release.",
    );
    const mark = "<!-- release-test: second release -->";
    const readme = join(changed.dir, "README.md");
    writeFileSync(readme, `${readFileSync(readme, "utf8")}\n${mark}\n`);
    await inRepo(["version-packages"]);
    await inRepo(["release"], 300_000);
    const latest = await latestOf(names);
    const manifests = Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, (await packument(n)).versions[latest[n]]])),
    );
    const shipped = await run(
      "tar",
      [
        "-xzOf",
        await tarballOf(changed.packageName, latest[changed.packageName]),
        "package/README.md",
      ],
      { quiet: true },
    );
    fail([
      ...releaseProblems({ changed: changed.packageName, before: first, after: latest, manifests }),
      ...(shipped.includes(mark)
        ? []
        : [`${changed.packageName}: the new tarball lacks the change`]),
    ]);
    const moved = names.filter((n) => latest[n] !== first[n]);
    console.log(
      `   released ${moved.map((n) => `${n} ${first[n]} → ${latest[n]}`).join(", ")}; nothing else moved`,
    );
    return latest;
  });

  // ---- 3. a snapshot under its own dist-tag ----
  await step(`snapshot: npm run release:canary (${changed.packageName})`, async () => {
    writeChangeset(
      "release-test-canary.md",
      { [changed.packageName]: "patch" },
      "Release test: a canary.",
    );
    const before = versionsInClone(packages);
    await inRepo(["release:canary"], 300_000);
    const after = versionsInClone(packages);
    const canary = Object.fromEntries(
      names.filter((n) => after[n] !== before[n]).map((n) => [n, after[n]]),
    );
    fail(
      snapshotProblems({ tag: "canary", canary, latest: second, distTags: await distTags(names) }),
    );
    console.log(
      `   canary: ${Object.entries(canary)
        .map(([n, v]) => `${n}@${v}`)
        .join(", ")}; latest unmoved`,
    );
  });

  // ---- what users see of every package at `latest` ----
  const byName = new Map(packages.map((p) => [p.name, p]));
  const published = () =>
    step("every package as published: npm view, tarball contents, ranges", async () => {
      const problems = await mapLimit(names, 4, async (name) => {
        const version = second[name];
        const view = JSON.parse(
          await run("npm", ["view", `${name}@${version}`, "--json"], {
            env: releaseEnv,
            quiet: true,
          }),
        );
        const tarball = await tarballOf(name, version);
        const files = (await run("tar", ["-tzf", tarball], { quiet: true })).trim().split("\n");
        const p = byName.get(name);
        return [
          ...metadataProblems(view, p.pkg, p.relDir),
          ...missingFiles(view, files),
          ...unpublishableRanges(view),
        ].map((m) => `${name}@${version}: ${m}`);
      });
      fail(problems.flat());
    });

  // ---- 4. clean projects: npm, pnpm, Bun and Deno install from the registry ----
  const latest = second;
  const env = {
    ...process.env,
    npm_config_registry: registry.url,
    NPM_CONFIG_REGISTRY: registry.url,
    // A user's npmrc without a token: users install anonymously.
    npm_config_userconfig: join(work, "npmrc-user"),
    // snappy@6's node-gyp build, offline: this Node's own headers (as scripts/setup.sh).
    npm_config_nodedir: nodedir,
    // Bun and Deno keep packages by name and version, not by registry: caches of their own,
    // so an earlier run's tarballs of the same versions cannot stand in for this run's.
    BUN_INSTALL_CACHE_DIR: join(work, "bun-cache"),
    DENO_DIR: join(work, "deno-dir"),
    NO_COLOR: "1",
  };
  writeFileSync(env.npm_config_userconfig, `registry=${registry.url}\n`);
  const framing = "@snappykit/framing";
  const requested = [...adapters.map((a) => a.packageName), framing];
  const typesNode = JSON.parse(readFileSync(require.resolve("@types/node/package.json"), "utf8"));
  const node = (args) => [process.execPath, args];
  const projects = [
    {
      label: "npm",
      runtime: "node",
      // npm also installs every other package: every entrypoint is imported and type-checked.
      install: (specs) => [
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          ...new Set([...specs, ...names]),
          `@types/node@${typesNode.version}`,
        ],
      ],
      run: node,
      everyEntrypoint: true,
    },
    {
      label: "pnpm",
      runtime: "node",
      // pnpm runs no dependency's build script unless the project allows it (snappy@6).
      files: { "pnpm-workspace.yaml": "allowBuilds:\n  snappy: true\n" },
      // A store of its own: the shared one's side-effects cache would hand over a snappy@6
      // built before instead of building it here.
      install: (specs) => ["pnpm", ["add", "--store-dir", join(work, "pnpm-store"), ...specs]],
      run: node,
    },
    {
      label: "bun",
      runtime: "bun",
      install: (specs) => [bin("bun"), ["add", ...specs]],
      run: (args) => [bin("bun"), args],
    },
    {
      label: "deno",
      runtime: "deno",
      // Deno installs no version younger than a day unless told: these are minutes old.
      files: {
        "deno.json": `${JSON.stringify({ nodeModulesDir: "auto", minimumDependencyAge: 0 })}\n`,
      },
      spec: (name) => `npm:${name}@${latest[name]}`,
      install: (specs) => [bin("deno"), ["add", ...specs.map((n) => `npm:${n}`)]],
      run: (args) => [bin("deno"), ["run", "--allow-all", "--quiet", ...args]],
    },
    {
      // Most users install only this; it must need no build step (snappy@7 ships binaries).
      label: "npm, @snappykit/auto alone",
      runtime: "node",
      only: ["@snappykit/auto"],
      install: (specs) => ["npm", ["install", "--no-audit", "--no-fund", ...specs]],
      run: node,
      noInstallScripts: true,
    },
  ];

  /** One clean project: install, check what landed in node_modules, run the program. */
  async function consumer(project, dir) {
    const where = (what) => (why) => `[${project.label}] ${what}: ${why}`;
    const cannotLoad = (name) =>
      adapters.find((a) => a.packageName === name)?.metadata.cannotLoad?.[project.runtime];
    const skipped = requested.filter(cannotLoad);
    for (const n of skipped) console.log(`[${project.label}] leaves out ${n}: ${cannotLoad(n)}`);
    const specs = project.only ?? requested.filter((n) => !skipped.includes(n));
    mkdirSync(dir, { recursive: true });
    const files = {
      "package.json": `${JSON.stringify({ name: "consumer", private: true, type: "module" })}\n`,
      ".npmrc": `registry=${registry.url}\n`,
      ...project.files,
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    const opts = { cwd: dir, env, label: project.label };
    try {
      await run(...project.install(specs), opts);
    } catch (error) {
      return [where("install")(error.message)];
    }
    const problems = installedProblems(installedManifests(dir), { latest, requested: specs }).map(
      where("installed manifests"),
    );
    if (project.noInstallScripts) {
      const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
      for (const [path, entry] of Object.entries(lock.packages)) {
        if (entry.hasInstallScript)
          problems.push(where("install")(`${path} has an install script`));
      }
    }
    const named = (name) => ({ name, spec: project.spec?.(name) ?? name });
    const adapterNames = specs.filter((n) => n !== framing);
    const every = project.everyEntrypoint ? entrypoints(names.map((n) => byName.get(n).pkg)) : [];
    const args = programArgs(dir, {
      adapters: adapterNames.map(named),
      ...(specs.includes(framing) && { framing: named(framing), codec: named("@snappykit/ts") }),
      entrypoints: every.filter((e) => !adapterNames.includes(e.spec)),
    });
    try {
      const output = await run(...project.run(args), { ...opts, timeout: 120_000 });
      for (const line of output.trim().split("\n"))
        console.log(`[${project.label}] ${line.replaceAll("\t", " ")}`);
    } catch (error) {
      const failures = programFailures(error.output ?? "");
      problems.push(
        ...(failures.length > 0 ? failures : [error.message]).map(where(`${project.runtime} run`)),
      );
    }
    if (project.everyEntrypoint) {
      const specsTs = every.map((e) => e.spec);
      await run(process.execPath, [tsc, ...writeTypeCheck(dir, specsTs, adapterNames)], opts).catch(
        (error) => problems.push(where("tsc over every entrypoint")(error.message)),
      );
    }
    return problems;
  }

  // Both run to the end, so a broken package shows what users would meet, too.
  const settled = await Promise.allSettled([
    published(),
    step(`clean projects: ${projects.map((p) => p.label).join("; ")}`, async () => {
      const problems = await Promise.all(
        projects.map((project, i) => consumer(project, join(work, "consumers", String(i)))),
      );
      fail(problems.flat());
    }),
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

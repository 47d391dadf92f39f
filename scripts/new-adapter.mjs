#!/usr/bin/env node
// Starts a new adapter package from templates/adapter (step 2 of CONTRIBUTING.md):
//
//   node scripts/new-adapter.mjs <id> <backend-package>@<exact-version>
//   e.g. node scripts/new-adapter.mjs snappyjs snappyjs@0.7.0
//
// Copies the template to packages/<id> and fills in ADAPTER_ID, BACKEND_PACKAGE and BACKEND_VERSION.
// Then run `pnpm install` and adapt src/index.ts to the backend's API.
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** A template file's text with its placeholders filled (check-packages.mjs checks it so). */
export const fillTemplate = (text, { id, backend, version }) =>
  text
    .replaceAll("ADAPTER_ID", id)
    .replaceAll("BACKEND_PACKAGE", backend)
    .replaceAll("BACKEND_VERSION", version);

function main([id, spec]) {
  // Not @snappykit/workspace's repoRoot: this runs before anything is built.
  const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));
  const match = /^(@?[^@]+)@(\d[^\s]*)$/.exec(spec ?? "");
  if (!id || !/^[a-z0-9][a-z0-9-]*$/.test(id) || !match) {
    console.error("usage: node scripts/new-adapter.mjs <id> <backend-package>@<exact-version>");
    process.exit(2);
  }
  const [, backend, version] = match;
  const target = join(repoRoot, "packages", id);
  if (existsSync(target)) {
    console.error(`packages/${id} already exists`);
    process.exit(1);
  }
  cpSync(join(repoRoot, "templates", "adapter"), target, { recursive: true });
  for (const name of readdirSync(target, { recursive: true })) {
    const file = join(target, name);
    if (statSync(file).isFile())
      writeFileSync(file, fillTemplate(readFileSync(file, "utf8"), { id, backend, version }));
  }
  console.log(
    `packages/${id} created for ${backend}@${version}. Next: pnpm install, then CONTRIBUTING.md step 3.`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2));

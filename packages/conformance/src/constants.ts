// Reads the size constants a package defines, from its own source, so the boundary checks
// cover a constant the day it is added, with no list to keep. Node-only (reads files).
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { SizeConstant } from "./sizes.js";

/** A top-level `const NAME = <initializer>;` (SCREAMING_CASE names only). */
const DECLARATION = /^(?:export\s+)?const\s+([A-Z][A-Z0-9_]*)\b[^=;]*=([^;]*);/gm;

/**
 * True when an initializer computes a number from literals, operators, other constants and
 * calls (`256 * 1024`, `1 << 20`, `CHECKSUM_SIZE + maxCompressedLength(MAX_CHUNK_DATA)`),
 * not an object, array, string, `new …`, a property read (`Uint8Array.of(…)`) or another
 * constant's value under a second name.
 */
function looksNumeric(initializer: string): boolean {
  return (
    // A bare name is another constant under a local name (see @snappykit/ts's tags.ts): it
    // is read where it is defined.
    !/^[A-Za-z_$][\w$]*$/.test(initializer) &&
    /^[\w\s.+\-*/%()<>|&^~,]+$/.test(initializer) &&
    /\d|[A-Z]{2}/.test(initializer) &&
    !/[A-Za-z_$)\]]\s*\.\s*[A-Za-z_$]/.test(initializer) &&
    !/\b(?:new|typeof|await|as)\b/.test(initializer)
  );
}

/** The package's source files that ship code: no tests, declarations or test helpers. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!/^(?:test|test-support|__fixtures__)$/.test(entry.name)) out.push(...sourceFiles(path));
    } else if (/\.ts$/.test(entry.name) && !/\.(?:test|d)\.ts$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out.sort();
}

/** Integer leaves of a JSON data file, named by their key path. */
function jsonLeaves(value: unknown, path: string, out: SizeConstant[]): void {
  if (Number.isInteger(value)) out.push({ name: path, value: value as number });
  else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) jsonLeaves(child, `${path}.${key}`, out);
  }
}

/**
 * The value of a numeric initializer made of literals, operators and the constants in
 * `known` (`32 * 1024`, `CHECKSUM_SIZE + MAX_CHUNK_DATA`), or undefined when it has anything
 * else (a call). Evaluated only once nothing but numbers and operators is left.
 */
function evaluate(initializer: string, known: ReadonlyMap<string, number>): number | undefined {
  const expression = initializer.replace(/\b[A-Za-z_$][\w$]*\b/g, (name) =>
    known.has(name) ? `(${known.get(name)})` : `@${name}`,
  );
  if (!/^[\d\s_xXoObBa-fA-F.+\-*/%()<>|&^~]+$/.test(expression)) return undefined;
  const value: unknown = new Function(`return (${expression});`)();
  return typeof value === "number" ? value : undefined;
}

/**
 * Every size constant of the package in `packageDir`: each top-level SCREAMING_CASE `const`
 * of its `src` whose initializer computes a number, and the integer leaves of the JSON data
 * files next to its package.json (auto's thresholds.json). Arithmetic on literals and the
 * file's other constants is evaluated from the source, so hot code keeps its constants
 * private (the optimiser folds those in, not exported ones); anything else (a call) is read
 * by importing the module: in the workspace its TypeScript source, as vitest runs it;
 * installed from npm, its `dist` build. Names are `<package folder>/<file> NAME`.
 * @throws Error naming every constant that is neither evaluable nor exported.
 */
export async function readSizeConstants(packageDir: string): Promise<SizeConstant[]> {
  const root = realpathSync(packageDir);
  const pkg = basename(root);
  const installed = root.split(/[\\/]/).includes("node_modules");
  const found: SizeConstant[] = [];
  const unreadable: string[] = [];
  const src = join(root, "src");
  for (const file of existsSync(src) ? sourceFiles(src) : []) {
    const rel = relative(src, file);
    const known = new Map<string, number>();
    const imported: string[] = [];
    for (const [, name, initializer] of readFileSync(file, "utf8").matchAll(DECLARATION)) {
      if (!looksNumeric(initializer!.trim())) continue;
      const value = evaluate(initializer!.trim(), known);
      if (value === undefined) imported.push(name!);
      else known.set(name!, value);
    }
    if (imported.length > 0) {
      const module = (await import(
        pathToFileURL(installed ? join(root, "dist", rel.replace(/\.ts$/, ".js")) : file).href
      )) as Record<string, unknown>;
      for (const name of imported) {
        const value = module[name];
        if (typeof value === "number") known.set(name, value);
        else unreadable.push(`${pkg}/src/${rel} ${name}`);
      }
    }
    for (const [name, value] of known) found.push({ name: `${pkg}/${rel} ${name}`, value });
  }
  if (unreadable.length > 0) {
    throw new Error(
      `export these size constants so the boundary checks can read them: ${unreadable.join(", ")}`,
    );
  }
  for (const entry of readdirSync(root)) {
    if (!entry.endsWith(".json") || entry === "package.json" || entry.startsWith("tsconfig")) {
      continue;
    }
    jsonLeaves(JSON.parse(readFileSync(join(root, entry), "utf8")), `${pkg}/${entry}`, found);
  }
  return found;
}

/**
 * The folder of each `@snappykit/*` package `packageDir` depends on (dependencies only, as
 * installed for it), recursively: the packages whose code runs when the adapter does.
 */
export function dependencyDirs(packageDir: string, seen = new Set<string>()): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const require = createRequire(join(packageDir, "package.json"));
  const dirs: string[] = [];
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (!name.startsWith("@snappykit/")) continue;
    const dir = realpathSync(join(require.resolve(`${name}/package.json`), ".."));
    if (seen.has(dir)) continue;
    seen.add(dir);
    dirs.push(dir, ...dependencyDirs(dir, seen));
  }
  return dirs;
}

// Workspace discovery and packing shared by check-packages.mjs and tarball-test.mjs.
// Packages are found through pnpm (the workspace is the one list), never listed here.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * @typedef {object} WorkspacePackage
 * @property {string} name
 * @property {string} dir       absolute path
 * @property {string} relDir    path from the repository root, "/"-separated
 * @property {Record<string, any>} pkg  its package.json
 * @property {boolean} publishable  not `"private": true`
 * @property {boolean} adapter  `"snappykit": { "adapter": true }`
 */

/** Every workspace package except the root, sorted by directory. */
export function workspacePackages(root = repoRoot) {
  const listed = JSON.parse(
    execFileSync("pnpm", ["ls", "--recursive", "--depth", "-1", "--json"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  /** @type {WorkspacePackage[]} */
  const found = [];
  for (const entry of listed) {
    if (resolve(entry.path) === resolve(root)) continue;
    const pkg = JSON.parse(readFileSync(join(entry.path, "package.json"), "utf8"));
    found.push({
      name: pkg.name,
      dir: entry.path,
      relDir: relative(root, entry.path).split("\\").join("/"),
      pkg,
      publishable: pkg.private !== true,
      adapter: pkg.snappykit?.adapter === true,
    });
  }
  return found.sort((a, b) => a.relDir.localeCompare(b.relDir));
}

/** The packages users install from npm: every workspace package not marked private. */
export function publishablePackages(root = repoRoot) {
  return workspacePackages(root).filter((p) => p.publishable);
}

/** Fails with a readable message when a package has no built output to pack. */
export function assertBuilt(p) {
  const entry = p.pkg.exports?.["."];
  const target = typeof entry === "string" ? entry : entry?.default;
  if (typeof target === "string" && !existsSync(join(p.dir, target))) {
    throw new Error(`${p.name}: ${target} is missing — run \`pnpm build\` first`);
  }
}

/**
 * `pnpm pack` one package into `dest`. pnpm (not npm) because it rewrites `workspace:^`
 * to the real version range, exactly as `changeset publish` (pnpm publish) will.
 * @returns {{ tarball: string, bytes: number, files: string[], manifest: Record<string, any> }}
 */
export function pack(p, dest) {
  assertBuilt(p);
  const out = execFileSync("pnpm", ["pack", "--pack-destination", dest, "--json"], {
    cwd: p.dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const info = JSON.parse(out.slice(out.indexOf("{")));
  const tarball = resolve(dest, info.filename);
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
  );
  return {
    tarball,
    bytes: statSync(tarball).size,
    files: info.files.map((f) => f.path),
    manifest,
  };
}

/** Runs `fn` over `items` with at most `limit` running at once (2 cores: keep it small). */
export async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

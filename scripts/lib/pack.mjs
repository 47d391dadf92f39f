// Packing for check-packages.mjs. Which packages there are comes
// from @snappykit/workspace (`workspacePackages`), the repository's one list.
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

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

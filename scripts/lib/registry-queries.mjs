// What a registry holds, asked over its HTTP API the way package managers ask it: for
// `pnpm test:release` (scripts/release-test.mjs), of the registry scripts/lib/registry.mjs starts.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Queries of the registry at `url`; downloaded tarballs go into the folder `tarballs`. */
export function registryQueries(url, tarballs) {
  /** Every version's manifest, and the dist-tags; null if the registry has no such package. */
  const packument = async (name) => {
    const response = await fetch(`${url}${name.replace("/", "%2f")}`);
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`GET ${name}: HTTP ${response.status}`);
    return response.json();
  };
  /** name → its dist-tags (none for a package the registry lacks). */
  const distTags = async (names) =>
    Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, (await packument(n))?.["dist-tags"] ?? {}])),
    );
  /** name → the version its `latest` dist-tag names. */
  const latestOf = async (names) =>
    Object.fromEntries(Object.entries(await distTags(names)).map(([n, tags]) => [n, tags.latest]));
  /** Downloads `name@version`'s tarball from the registry; returns its path. */
  const tarballOf = async (name, version) => {
    const { dist } = (await packument(name)).versions[version];
    const file = join(tarballs, `${name.replace("/", "-")}-${version}.tgz`);
    mkdirSync(tarballs, { recursive: true });
    writeFileSync(file, Buffer.from(await (await fetch(dist.tarball)).arrayBuffer()));
    return file;
  };
  return { packument, distTags, latestOf, tarballOf };
}

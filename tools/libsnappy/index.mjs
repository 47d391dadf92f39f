// Where this machine's libsnappy build is, and what it is: the manifest build.mjs wrote next
// to the libraries. Reading only; `npm run setup` (or build.mjs) makes the build.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The git-ignored folder every build lives in, one subfolder per source. */
export const CACHE = join(here, "cache");

/** The build's CLI (build.mjs), for a consumer that builds a missing checkout first. */
export const BUILD_SCRIPT = join(here, "build.mjs");

/** The environment variable naming a libsnappy source checkout to use instead of 1.2.2. */
export const SOURCE_ENV = "SNAPPYKIT_LIBSNAPPY";

/**
 * The build folder for a source: `default` for the downloaded 1.2.2 (or its 1.1.7 fallback),
 * `checkout-<hash of its real path>` for a checkout named by --libsnappy or SNAPPYKIT_LIBSNAPPY.
 */
export function buildDir(libsnappy) {
  if (!libsnappy) return join(CACHE, "default");
  const path = existsSync(libsnappy) ? realpathSync(libsnappy) : resolve(libsnappy);
  return join(CACHE, `checkout-${createHash("sha256").update(path).digest("hex").slice(0, 12)}`);
}

/**
 * The build for `libsnappy` (a source checkout; default: $SNAPPYKIT_LIBSNAPPY, else the
 * downloaded 1.2.2), as `{ ok: true, version, flags, source, staticLib, sharedLib,
 * includeDir, manifest }`, or `{ ok: false, reason }` when there is none or it failed.
 */
export function locate({ libsnappy = process.env[SOURCE_ENV] } = {}) {
  const dir = buildDir(libsnappy || undefined);
  const manifest = join(dir, "manifest.json");
  if (!existsSync(manifest)) {
    const how = libsnappy
      ? `node tools/libsnappy/build.mjs --libsnappy ${libsnappy}`
      : "npm run setup (or node tools/libsnappy/build.mjs)";
    return { ok: false, reason: `libsnappy is not built here: run ${how}` };
  }
  const built = JSON.parse(readFileSync(manifest, "utf8"));
  if (!built.ok) return { ok: false, reason: built.reason };
  return {
    ok: true,
    version: built.version,
    flags: built.flags,
    source: built.source,
    staticLib: join(dir, built.staticLib),
    sharedLib: join(dir, built.sharedLib),
    includeDir: join(dir, built.includeDir),
    manifest,
  };
}

/** One line for reports: `libsnappy 1.2.2 (Debian's archive; g++ 12.2.0: -O3 -march=native ...)`. */
export function describe(build) {
  const from = {
    debian: "Debian's archive",
    vendored: "snappy@6's vendored copy: 1.2.2 could not be downloaded",
    checkout: `checkout ${build.source.dir}`,
  }[build.source.kind];
  return `libsnappy ${build.version} (${from}; ${build.flags.compiler}: ${build.flags.cxxFlags})`;
}

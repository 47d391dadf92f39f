// What `pnpm test:release` (scripts/release-test.mjs) asserts about a release, as functions of
// plain data (manifests, tarballs, dist-tags), so each can be proven on crafted input
// (release-checks.test.mjs). Every function returns a list of readable problems; empty is good.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import semver from "semver";

const DEPENDENCY_FIELDS = [
  "dependencies",
  "peerDependencies",
  "optionalDependencies",
  "devDependencies",
];
/** The fields whose packages a user's install pulls in. */
const RUNTIME_FIELDS = DEPENDENCY_FIELDS.filter((f) => f !== "devDependencies");

/**
 * publint's findings on the tarball at `path` (every file the manifest points at must be in
 * it, among others), at `level` and up: "error", "warning" or "suggestion" (then strict,
 * warnings as errors).
 */
export async function tarballLint(path, level) {
  const tgz = readFileSync(path);
  const tarball = tgz.buffer.slice(tgz.byteOffset, tgz.byteOffset + tgz.byteLength);
  const lint = await publint({ pack: { tarball }, level, strict: level === "suggestion" });
  return lint.messages.map(
    (m) => `publint ${m.type} ${m.code}: ${formatMessage(m, lint.pkg, { color: false })}`,
  );
}

/**
 * Dependency ranges no registry can resolve: `workspace:` and `catalog:` (pnpm rewrites them
 * when it packs), `file:` and `link:`.
 */
export function unpublishableRanges(manifest) {
  const problems = [];
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|catalog|file|link):/.test(range)) {
        problems.push(`${field}.${name} is "${range}"`);
      }
    }
  }
  return problems;
}

/**
 * What `npm view <name>@<version> --json` shows, against the workspace's package.json at
 * `relDir`: the fields a user reads before installing, and the ones their tools resolve.
 */
export function metadataProblems(view, source, relDir) {
  const problems = [];
  const same = (field, a, b) => {
    if (!isDeepStrictEqual(a, b)) {
      problems.push(`${field} is ${JSON.stringify(a)}, expected ${JSON.stringify(b)}`);
    }
  };
  for (const field of ["description", "license", "types"]) {
    if (typeof view[field] !== "string" || view[field] === "") problems.push(`no ${field}`);
    else same(field, view[field], source[field]);
  }
  if (!view.repository?.url) problems.push("no repository.url");
  same("repository.directory", view.repository?.directory, relDir);
  if (!view.engines?.node) problems.push("no engines.node");
  else same("engines", view.engines, source.engines);
  if (!view.exports) problems.push("no exports");
  else same("exports", view.exports, source.exports);
  return problems;
}

/** Packages whose runtime dependencies reach `name`, directly or through each other. */
function dependentsOf(name, manifests) {
  const reached = new Set([name]);
  for (let size = 0; size < reached.size; ) {
    size = reached.size;
    for (const [other, manifest] of Object.entries(manifests)) {
      const deps = RUNTIME_FIELDS.flatMap((f) => Object.keys(manifest[f] ?? {}));
      if (deps.some((d) => reached.has(d))) reached.add(other);
    }
  }
  reached.delete(name);
  return reached;
}

/**
 * A release that changed only `changed`, with a bump its dependents' ranges do not admit:
 * `changed` and every package that depends on it directly get new versions, the dependents'
 * published ranges admit the new version, and nothing that does not depend on it moves.
 * `before` and `after` map name → `latest` version; `manifests` maps name → the manifest
 * published as `after[name]`.
 */
export function releaseProblems({ changed, before, after, manifests }) {
  const problems = [];
  const moved = (name) => after[name] !== before[name];
  if (!moved(changed)) problems.push(`${changed}: not released (still ${before[changed]})`);
  const dependents = dependentsOf(changed, manifests);
  for (const [name, manifest] of Object.entries(manifests)) {
    const range = RUNTIME_FIELDS.map((f) => manifest[f]?.[changed]).find(Boolean);
    if (range !== undefined) {
      if (!moved(name)) {
        problems.push(`${name}: depends on ${changed} but was not bumped (still ${after[name]})`);
      } else if (!semver.satisfies(after[changed], range)) {
        problems.push(
          `${name}@${after[name]}: its range ${range} for ${changed} misses ${after[changed]}`,
        );
      }
    }
    if (name !== changed && moved(name) && !dependents.has(name)) {
      problems.push(
        `${name}: bumped ${before[name]} → ${after[name]} without depending on ${changed}`,
      );
    }
    if (moved(name) && before[name] && !semver.gt(after[name], before[name])) {
      problems.push(`${name}: ${after[name]} is not newer than ${before[name]}`);
    }
  }
  return problems;
}

/**
 * A snapshot release: each package in `canary` (name → snapshot version) is a prerelease
 * under the `tag` dist-tag, and `latest` did not move for any package. `distTags` maps
 * name → the registry's dist-tags after the snapshot; `latest` maps name → latest before it.
 */
export function snapshotProblems({ tag, canary, latest, distTags }) {
  const problems = [];
  if (Object.keys(canary).length === 0) problems.push("the snapshot versioned no package");
  for (const [name, version] of Object.entries(canary)) {
    // changesets' snapshot versions are `0.0.0-<tag>-<datetime>` by default.
    if (!String(semver.prerelease(version)?.[0] ?? "").startsWith(tag)) {
      problems.push(`${name}: snapshot version ${version} is not a "${tag}" prerelease`);
    }
    if (distTags[name]?.[tag] !== version) {
      problems.push(`${name}: dist-tag ${tag} is ${distTags[name]?.[tag]}, expected ${version}`);
    }
  }
  for (const [name, version] of Object.entries(latest)) {
    if (distTags[name]?.latest !== version) {
      problems.push(`${name}: latest moved to ${distTags[name]?.latest} (was ${version})`);
    }
  }
  return problems;
}

/**
 * Installed @snappykit packages (one entry per copy on disk, `path` for messages): none may
 * keep an unpublishable range, each must be there once (a second @snappykit/core would make
 * `instanceof SnappyError` fail across adapters), in the `latest` version (name → version: a
 * fresh install resolves every range to it), and every name in `requested` must be there.
 */
export function installedProblems(installed, { latest, requested }) {
  const problems = [];
  const copies = new Map();
  for (const copy of installed) {
    for (const p of unpublishableRanges(copy.manifest)) problems.push(`${copy.path}: ${p}`);
    copies.set(copy.manifest.name, [...(copies.get(copy.manifest.name) ?? []), copy]);
  }
  for (const [name, list] of copies) {
    const versions = [...new Set(list.map((c) => c.manifest.version))];
    if (versions.length > 1)
      problems.push(`${name}: ${versions.join(" and ")} installed side by side`);
    else if (list.length > 1) {
      problems.push(
        `${name}: installed ${list.length} times (${list.map((c) => c.path).join(", ")})`,
      );
    } else if (latest[name] && versions[0] !== latest[name]) {
      problems.push(`${name}: ${versions[0]} installed, latest is ${latest[name]}`);
    }
  }
  for (const name of requested) {
    if (!copies.has(name)) problems.push(`${name}: not installed`);
  }
  return problems;
}

// The repository's one list of packages and adapters, for the apps (bench, fuzz, runtimes)
// and the scripts. pnpm's workspace is the source; an adapter is a package under packages/
// whose package.json says `"snappykit": { "adapter": true }`. Apps load adapters from the
// entry their package's `exports` map gives, by path, so no app lists adapters among its
// dependencies: a new adapter needs no edit outside its own folder.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadModule } from "@snappykit/conformance/cases";
import type { RawBackend, SnappyCodec } from "@snappykit/core";
import { exports as resolveExports } from "resolve.exports";

/** The repository root (tools/workspace/{src,dist}/ → ../../..). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The fields of a package.json read here. */
export interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly description?: string;
  readonly exports?: unknown;
  readonly snappykit?: AdapterMetadata;
  readonly [field: string]: unknown;
}

/**
 * An adapter's `"snappykit"` field: everything the repository needs to know about it
 * beyond its code, so adding one needs no edit outside its folder.
 */
export interface AdapterMetadata {
  readonly adapter?: boolean;
  /** README table cells (apps/bench/src/docs): what it wraps, where it runs, its guard. */
  readonly wraps?: string;
  readonly runtime?: string;
  readonly guard?: string;
  /**
   * Runtimes it cannot load in, and why: those of `pnpm test:runtimes` (node22, node24,
   * node26, bun, deno, browser), and `node`, the Node that runs the workspace's tools (the
   * fuzzer, the release test's npm and pnpm projects): see {@link declaredUnloadable}.
   */
  readonly cannotLoad?: Readonly<Record<string, string>>;
}

export interface WorkspacePackage {
  readonly name: string;
  /** Absolute path. */
  readonly dir: string;
  /** Path from the repository root, "/"-separated. */
  readonly relDir: string;
  readonly pkg: PackageJson;
  /** Not `"private": true`: users install it from npm. */
  readonly publishable: boolean;
  /** `"snappykit": { "adapter": true }`. */
  readonly adapter: boolean;
}

const listed = new Map<string, WorkspacePackage[]>();

/** Every workspace package except the root, sorted by folder, as `pnpm ls` lists them. */
export function workspacePackages(root = repoRoot): WorkspacePackage[] {
  let found = listed.get(root);
  if (!found) {
    const entries = JSON.parse(
      execFileSync("pnpm", ["ls", "--recursive", "--depth", "-1", "--json"], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }),
    ) as { path: string }[];
    found = entries
      .filter((entry) => resolve(entry.path) !== resolve(root))
      .map((entry) => {
        const pkg = JSON.parse(readFileSync(join(entry.path, "package.json"), "utf8"));
        return {
          name: pkg.name,
          dir: entry.path,
          relDir: relative(root, entry.path).split("\\").join("/"),
          pkg,
          publishable: pkg.private !== true,
          adapter: pkg.snappykit?.adapter === true,
        };
      })
      .sort((a, b) => a.relDir.localeCompare(b.relDir));
    listed.set(root, found);
  }
  return found;
}

/** An adapter package found in the workspace, not yet loaded. */
export interface AdapterEntry {
  /** Folder name under packages/: the codec's `name` and its id in every report. */
  readonly id: string;
  readonly packageName: string;
  readonly dir: string;
  /** Absolute path of the module its `exports["."]` gives Node (and Bun and Deno). */
  readonly entry: string;
  /** The same for a browser bundler (the `browser` condition where it has one). */
  readonly browserEntry: string;
  /** `entry` and `browserEntry` of its `./raw` entry, with `createRaw` (no guards). */
  readonly rawEntry: string;
  readonly browserRawEntry: string;
  readonly metadata: AdapterMetadata;
}

/** The module `pkg`'s `exports[path]` gives under `conditions` (plus `import`, `default`). */
function entryOf(p: WorkspacePackage, conditions: string[], path = "."): string {
  const [target] =
    resolveExports(p.pkg, path, { conditions: [...conditions, "import"], unsafe: true }) ?? [];
  if (!target) {
    throw new Error(`${p.name}: exports["${path}"] has no entry for ${conditions.join(", ")}`);
  }
  return join(p.dir, target);
}

/** Every adapter in the workspace, sorted by id. */
export function discoverAdapters(root = repoRoot): AdapterEntry[] {
  return workspacePackages(root)
    .filter((p) => p.adapter && p.relDir === `packages/${basename(p.dir)}`)
    .map((p) => ({
      id: basename(p.dir),
      packageName: p.name,
      dir: p.dir,
      entry: entryOf(p, ["node"]),
      browserEntry: entryOf(p, ["browser"]),
      rawEntry: entryOf(p, ["node"], "./raw"),
      browserRawEntry: entryOf(p, ["browser"], "./raw"),
      metadata: p.pkg.snappykit ?? {},
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

export interface LoadedAdapter extends AdapterEntry {
  readonly codec: SnappyCodec;
  /** The backend called directly, without the adapter's guards. */
  readonly raw: RawBackend;
  /** The same backend with non-default settings (from `createVariants`), if any. */
  readonly variants: readonly SnappyCodec[];
}

export interface FailedAdapter extends AdapterEntry {
  readonly reason: string;
}

/** A codec that did not load (an adapter, or the bench's `cpp` without a compiler), and why. */
export type Unloaded = Pick<FailedAdapter, "id" | "packageName" | "reason">;

/**
 * Why `failed` was not expected to load in the Node running the workspace's tools (its
 * package.json's `cannotLoad.node`: ffi before Node 26), or undefined when its failure is a
 * problem to report.
 */
export const declaredUnloadable = (failed: FailedAdapter): string | undefined =>
  failed.metadata.cannotLoad?.node;

/**
 * Import and instantiate each adapter. One that fails to load (a native build missing, a
 * wasm module that will not instantiate, a package not built) is returned in `failed` with
 * the reason, and the rest carry on.
 */
export async function loadAdapters(
  entries: readonly AdapterEntry[],
): Promise<{ loaded: LoadedAdapter[]; failed: FailedAdapter[] }> {
  const loaded: LoadedAdapter[] = [];
  const failed: FailedAdapter[] = [];
  for (const entry of entries) {
    try {
      const [mod, raw] = await Promise.all(
        [entry.entry, entry.rawEntry].map((file) => import(pathToFileURL(file).href)),
      );
      loaded.push({ ...entry, ...(await loadModule(mod, raw)) });
    } catch (error) {
      failed.push({ ...entry, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { loaded, failed };
}

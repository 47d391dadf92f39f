// Finds every adapter in the workspace and loads it. Adapters mark themselves with
// `"snappykit": { "adapter": true }` in their package.json, so adding one needs no edit here.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AdapterModule, RawBackend, SnappyCodec } from "@snappykit/core";

/** The repository root (apps/bench/{src,dist}/ → ../../..). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** An adapter package found in the workspace, not yet loaded. */
export interface AdapterEntry {
  /** Folder name under packages/, which is also the codec's report id. */
  readonly id: string;
  readonly packageName: string;
  readonly dir: string;
  /** Absolute path of the module its `exports["."]` points to. */
  readonly entry: string;
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

interface AdapterPackageJson {
  name: string;
  snappykit?: { adapter?: boolean };
  exports?: { ".": { default: string } };
}

/** Every package under `packages/` that declares itself a snappykit adapter, sorted by id. */
export function discoverAdapters(root = repoRoot): AdapterEntry[] {
  const packagesDir = join(root, "packages");
  const found: AdapterEntry[] = [];
  for (const id of readdirSync(packagesDir).sort()) {
    const dir = join(packagesDir, id);
    let pkg: AdapterPackageJson;
    try {
      pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as AdapterPackageJson;
    } catch {
      continue; // not a package
    }
    if (pkg.snappykit?.adapter !== true) continue;
    const target = pkg.exports?.["."]?.default ?? "./dist/index.js";
    found.push({ id, packageName: pkg.name, dir, entry: join(dir, target) });
  }
  return found;
}

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
      const mod = (await import(pathToFileURL(entry.entry).href)) as Partial<AdapterModule>;
      if (typeof mod.createCodec !== "function" || typeof mod.createRaw !== "function") {
        throw new Error(`${entry.packageName} does not export createCodec and createRaw`);
      }
      const [codec, raw, variants] = await Promise.all([
        mod.createCodec(),
        mod.createRaw(),
        mod.createVariants?.() ?? [],
      ]);
      loaded.push({ ...entry, codec, raw, variants });
    } catch (error) {
      failed.push({ ...entry, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { loaded, failed };
}

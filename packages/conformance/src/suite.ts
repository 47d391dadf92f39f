import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AdapterModule, RawModule, SnappyCodec } from "@snappykit/core";
import { installedLibrary } from "@snappykit/core/node";
import { getGolden, loadPayloads } from "@snappykit/fixtures";
import { afterAll, beforeAll, describe, it } from "vitest";
import { codecsOf, type LoadedModule, loadModule, moduleChecks, onEveryCodec } from "./adapter.js";
import type { PayloadSet } from "./check.js";
import { type ConformanceInputs, conformanceChecks } from "./checks.js";
import { dependencyDirs, readSizeConstants } from "./constants.js";
import { boundarySizes } from "./sizes.js";

interface SuiteInputs extends ConformanceInputs {
  /**
   * Also round-trip every `@snappykit/fixtures` payload and decode its libsnappy golden
   * vectors (added to `payloads`).
   * @default true
   */
  fixtures?: boolean;
}

/** An adapter's whole module: `createCodec`, every variant and `createRaw` are checked. */
export interface ModuleConformanceOptions extends SuiteInputs {
  /** The adapter's main entry, e.g. `await import("./index.js")`. */
  module: Partial<AdapterModule>;
  /** Its `./raw` entry, with `createRaw`, e.g. `await import("./raw.js")`. */
  raw: Partial<RawModule>;
  /**
   * `import.meta.url` of the test file: its package's folder is the id the codec must be
   * named, and the backend version it reports is checked against what that package has
   * installed.
   */
  url: string | URL;
  /**
   * The `name@version` the codec must name, for a backend that is no npm package (a shared
   * library the adapter opens): the caller's word, from what built or installed it.
   * @default the version of that npm package installed for the adapter
   */
  library?: string;
}

/** One codec built some other way (other options than the module's defaults). */
export interface CodecConformanceOptions extends SuiteInputs {
  /**
   * `import.meta.url` of the test file: the boundary checks read the size constants of its
   * package and of the `@snappykit/*` packages it depends on (without it, only core's).
   */
  url?: string | URL;
  /** Create the codec under test (called once, before the checks). */
  setup(): Promise<SnappyCodec> | SnappyCodec;
  /** Release whatever `setup` created. */
  teardown?(codec: SnappyCodec): Promise<void> | void;
}

/** What an adapter's test file passes to {@link runConformance}. */
export type ConformanceOptions = ModuleConformanceOptions | CodecConformanceOptions;

/** Every fixture payload with its golden vectors. */
export function fixturePayloads(): PayloadSet[] {
  return loadPayloads().map((p) => ({ name: p.name, items: p.items, golden: getGolden(p.name) }));
}

/** The folder of the package holding `url` (the nearest one with a package.json). */
function packageDir(url: string | URL): string {
  let dir = dirname(fileURLToPath(url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${String(url)}`);
    dir = parent;
  }
  return dir;
}

/**
 * Register the conformance suite with vitest. An adapter's whole conformance test:
 *
 * ```ts
 * import { runConformance } from "@snappykit/conformance";
 * runConformance({
 *   module: await import("./index.js"),
 *   raw: await import("./raw.js"),
 *   url: import.meta.url,
 * });
 * ```
 *
 * Every codec check runs on `createCodec()`'s codec and on each `createVariants()` codec;
 * the module checks cover the folder id, the backend version and `createRaw`. `setup`
 * instead of `module` checks one codec built another way.
 */
export function runConformance(options: ConformanceOptions): void {
  // Async: the boundary sizes come from the code's constants, read before the checks exist.
  describe("snappykit conformance", async () => {
    let codecs: SnappyCodec[] | undefined;
    let module: LoadedModule | undefined;
    beforeAll(async () => {
      if ("module" in options) {
        module = await loadModule(options.module, options.raw);
        codecs = codecsOf(module);
      } else {
        codecs = [await options.setup()];
      }
    });
    afterAll(async () => {
      if ("teardown" in options && codecs?.[0]) await options.teardown?.(codecs[0]);
    });
    const payloads = [
      ...(options.payloads ?? []),
      ...(options.fixtures === false ? [] : fixturePayloads()),
    ];
    const tests: { group: string; name: string; run(): Promise<void> | void }[] = [];
    if ("module" in options) {
      const dir = packageDir(options.url);
      const from = pathToFileURL(join(dir, "package.json"));
      const expected = {
        id: basename(dir),
        installed: (name: string) => options.library ?? installedLibrary(name, from),
      };
      for (const check of moduleChecks(expected)) {
        tests.push({ ...check, run: () => check.run(loaded(module)) });
      }
    }
    const boundaries = boundarySizes(await sizeConstants(options.url));
    for (const check of conformanceChecks({ ...options, payloads, boundaries })) {
      tests.push({ ...check, run: () => onEveryCodec(check, loaded(codecs)) });
    }
    const groups = new Map<string, typeof tests>();
    for (const test of tests) groups.set(test.group, [...(groups.get(test.group) ?? []), test]);
    for (const [group, list] of groups) {
      describe(group, () => {
        for (const test of list) it(test.name, () => test.run());
      });
    }
  });
}

/**
 * The size constants of the package holding `url` and of every `@snappykit/*` package it
 * depends on (core's when there is no `url`).
 */
async function sizeConstants(url: string | URL | undefined) {
  const dirs = url
    ? [packageDir(url), ...dependencyDirs(packageDir(url))]
    : [dirname(createRequire(import.meta.url).resolve("@snappykit/core/package.json"))];
  return (await Promise.all(dirs.map(readSizeConstants))).flat();
}

function loaded<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("the adapter did not load");
  return value;
}

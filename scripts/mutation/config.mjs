// StrykerJS options for `pnpm mutation` (scripts/mutation/run.mjs): the same for every package
// but what names the package. Run from the repository root, so each package's vitest.config.ts
// finds ../../vitest.shared.ts in the sandbox as it does in the checkout.
import { existsSync } from "node:fs";

/** The packages `pnpm mutation` tests (the code that decides correctness), quickest first. */
export const PACKAGES = ["core", "framing", "ts"];

/** Where the reports go (ignored by git): `<pkg>.json`, `<pkg>.html`, `<pkg>.incremental.json`. */
export const REPORTS = "reports/mutation";

/** @returns {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export function mutationConfig(pkg) {
  const dir = `packages/${pkg}`;
  return {
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    // Forks, as vitest runs them: the shared config gives workers --expose-gc, which a
    // worker thread (Stryker's default pool) refuses. Every test file a mutant's covering
    // tests come from, not only those vitest finds "related" to the mutated file through
    // static imports (Stryker's default): ts's fallback.test.ts reaches the TypeScript loops
    // through dynamic imports.
    vitest: { configFile: `${dir}/vitest.config.ts`, pool: "forks", related: false },
    // Source files only: no tests, test helpers (src/test, src/test-support) or scripts.
    mutate: [
      `${dir}/src/**/*.ts`,
      `!${dir}/src/**/*.test.ts`,
      ...["test", "test-support"]
        .filter((helpers) => existsSync(`${dir}/src/${helpers}`))
        .map((helpers) => `!${dir}/src/${helpers}/**`),
      // ts's WebAssembly kernel as a base64 string, generated from kernel.wat (which Stryker
      // cannot mutate): instrumenting the file would fail kernel.test.ts's check that it is
      // what scripts/kernel.mjs generates, and mutating the string only breaks the module.
      `!${dir}/src/kernel-binary.ts`,
    ],
    // The sandbox holds this package and the root files its vitest config reads; the other
    // workspace packages are reached through the symlinked node_modules (their builds).
    ignorePatterns: [
      "/*",
      "!/package.json",
      "!/tsconfig.base.json",
      "!/vitest.shared.ts",
      "!/packages",
      "/packages/*",
      `!/${dir}`,
    ],
    // No `// @ts-nocheck` added to the sandbox's files: vitest strips types without checking
    // them, and the comment would change a file a test reads as text (ts's kernel-binary.ts).
    disableTypeChecks: false,
    coverageAnalysis: "perTest",
    // ts's decoder warms itself up at import (decompress.ts, `warmUp`), so every decoder mutant
    // also runs while modules load: a "static" mutant, for which Stryker reloads everything
    // and runs the whole suite (~1 min instrumented; ~1000 mutants). With ignoreStatic, a
    // mutant that tests also reach is run, active only during those tests (the warm-up itself
    // only feeds the optimiser); one reached only while modules load (a module constant, the
    // kernel's loading) is Ignored, and docs/mutation.md lists those as not measured.
    ignoreStatic: pkg === "ts",
    // One test process: the machine is shared and has 2 cores (`--concurrency 2` when idle).
    concurrency: 1,
    // A mutant in a loop can spin forever (ts's decoder warms itself up at import, so even an
    // import can hang): Stryker's timeout, the dry run's time × 1.5 + 10 s, kills it.
    timeoutFactor: 1.5,
    timeoutMS: 10_000,
    dryRunTimeoutMinutes: 30,
    // Reruns retest only mutants whose code or covering tests changed (`--force`: all).
    incremental: true,
    incrementalFile: `${REPORTS}/${pkg}.incremental.json`,
    reporters: ["progress", "clear-text", "json", "html"],
    jsonReporter: { fileName: `${REPORTS}/${pkg}.json` },
    htmlReporter: { fileName: `${REPORTS}/${pkg}.html` },
    clearTextReporter: { reportScoreTable: true, reportMutants: false, reportTests: false },
    // One per package: runs of two packages may overlap.
    tempDirName: `.stryker-tmp-${pkg}`,
    thresholds: { high: 90, low: 85, break: null },
  };
}

// What the generated blocks of the docs are made from: the committed reports (the bench's
// payload run, sweep and soak in apps/bench/docs, the fuzzer's runs in apps/fuzz/docs),
// auto's shipped thresholds, the fixtures' manifest and the adapters' package.json files.
// Each is read once, when a section first asks for it, from the repository at `root`.
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { repoRoot, workspacePackages } from "@snappykit/workspace";

/** The committed report files, by the name sections use. */
export const REPORTS = {
  bench: "apps/bench/docs/sample-report.json",
  sweep: "apps/bench/docs/sweep.json",
  soak: "apps/bench/docs/soak.json",
  safety: "apps/fuzz/docs/safety.json",
  encoders: "apps/fuzz/docs/encoders.json",
  async: "apps/fuzz/docs/async.json",
  guided: "apps/fuzz/docs/guided",
  thresholds: "packages/auto/thresholds.json",
  manifest: "fixtures/data/manifest.json",
};

/** Where GitHub shows a file of the repository, for READMEs that npm shows too. */
export const REPO_URL = "https://github.com/snappykit/snappykit/blob/main";

/**
 * The sources of the repository at `root`, each read on first use. Tests swap one for an
 * edited copy with `{ ...context, bench: edited }` after reading it.
 * @param {string} [root]
 */
export function docsContext(root = repoRoot) {
  const cache = new Map();
  const once = (key, load) => {
    if (!cache.has(key)) cache.set(key, load());
    return cache.get(key);
  };
  const json = (path) => JSON.parse(readFileSync(join(root, path), "utf8"));
  return {
    root,
    get bench() {
      return once("bench", () => json(REPORTS.bench));
    },
    get sweep() {
      return once("sweep", () => json(REPORTS.sweep));
    },
    get soak() {
      return once("soak", () => json(REPORTS.soak));
    },
    get safety() {
      return once("safety", () => json(REPORTS.safety));
    },
    get encoders() {
      return once("encoders", () => json(REPORTS.encoders));
    },
    get async() {
      return once("async", () => json(REPORTS.async));
    },
    /** Every coverage-guided session's report, oldest first. */
    get guided() {
      return once("guided", () =>
        readdirSync(join(root, REPORTS.guided))
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => json(posix.join(REPORTS.guided, f))),
      );
    },
    get thresholds() {
      return once("thresholds", () => json(REPORTS.thresholds));
    },
    get manifest() {
      return once("manifest", () => json(REPORTS.manifest));
    },
    get packages() {
      return once("packages", () => workspacePackages(root));
    },
  };
}

/**
 * The commits the committed reports were measured at (full hashes), for the check that a
 * doc cites no other.
 * @param {ReturnType<typeof docsContext>} context
 */
export function reportCommits(context) {
  return [
    context.bench.environment.commit,
    context.sweep.environment.commit,
    context.soak.environment.commit,
    context.thresholds.provenance.commit,
  ].filter(Boolean);
}

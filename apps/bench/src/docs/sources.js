// What the generated blocks of the docs are made from: the committed reports (the bench's
// payload run, sweep, soak, trials, standard-corpus and req/resp runs in apps/bench/docs, the fuzzer's runs in apps/fuzz/docs),
// auto's shipped thresholds, the fixtures' manifest and the adapters' package.json files.
// Each is read once, when a section first asks for it, from the repository at `root`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { repoRoot, workspacePackages } from "@snappykit/workspace";

/** The committed report files, by the name sections use. */
export const REPORTS = {
  bench: "apps/bench/docs/sample-report.json",
  sweep: "apps/bench/docs/sweep.json",
  soak: "apps/bench/docs/soak.json",
  trials: "apps/bench/docs/trials.json",
  corpus: "apps/bench/docs/corpus.json",
  reqresp: "apps/bench/docs/reqresp.json",
  safety: "apps/fuzz/docs/safety.json",
  encoders: "apps/fuzz/docs/encoders.json",
  async: "apps/fuzz/docs/async.json",
  guided: "apps/fuzz/docs/guided",
  thresholds: "packages/auto/thresholds.json",
  manifest: "fixtures/data/manifest.json",
};

/**
 * The sources of the repository at `root`, each read on first use: every report of REPORTS
 * by its name (`guided`: every coverage-guided session, oldest first), and `packages`, the
 * workspace's packages. Tests swap one for an edited copy with `{ ...context, bench: edited }`.
 * @param {string} [root]
 */
export function docsContext(root = repoRoot) {
  const json = (path) => JSON.parse(readFileSync(join(root, path), "utf8"));
  const loaders = {
    ...Object.fromEntries(Object.entries(REPORTS).map(([name, path]) => [name, () => json(path)])),
    guided: () =>
      readdirSync(join(root, REPORTS.guided))
        .filter((f) => f.endsWith(".json"))
        .sort()
        .map((f) => json(posix.join(REPORTS.guided, f))),
    packages: () => workspacePackages(root),
    // Made by hand on a quiet machine (`npm run bench:trials`), so a checkout may lack it.
    trials: () => (existsSync(join(root, REPORTS.trials)) ? json(REPORTS.trials) : null),
    // Opt-in (`npm run bench:reqresp`): absent until a run is adopted.
    reqresp: () => (existsSync(join(root, REPORTS.reqresp)) ? json(REPORTS.reqresp) : null),
  };
  const context = { root };
  for (const [name, load] of Object.entries(loaders)) {
    let value;
    Object.defineProperty(context, name, {
      enumerable: true,
      get: () => {
        value ??= load();
        return value;
      },
    });
  }
  return context;
}

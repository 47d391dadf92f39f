// Whether the lab's committed reports still describe today's code. Each report records the
// commit it was measured at and the git tree of every package it measured (`measured`,
// written by the bench and the fuzzer through @snappykit/workspace/environment's
// measuredTrees). What changed since is shown on the results page (the `report-status`
// section) and refused by a release (`npm run version-packages` runs this file first);
// `npm test` does not check it, so a change to a library never needs a report rerun to pass.
//
//   node scripts/lib/report-trees.mjs   exit 1, naming each stale report and how to remake it
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";

/** The folders whose `*.json` files are committed reports. */
const REPORT_DIRS = ["apps/bench/docs", "apps/fuzz/docs"];

const ADOPT = "npm run docs -- --adopt";

/** How each committed report is made again (CONTRIBUTING.md, Reports and results). */
export const REGENERATE = {
  "apps/bench/docs/sample-report.json": `pnpm bench --compare apps/bench/docs/sample-report.json && ${ADOPT}`,
  "apps/bench/docs/sweep.json": `pnpm bench --sweep && ${ADOPT}`,
  "apps/bench/docs/soak.json": `pnpm bench --soak && ${ADOPT}`,
  "apps/bench/docs/corpus.json": `npm run bench:corpus && ${ADOPT}`,
  "apps/bench/docs/trials.json": `npm run bench:trials && ${ADOPT}`,
  "apps/fuzz/docs/safety.json": "pnpm fuzz --out apps/fuzz/docs",
  "apps/fuzz/docs/encoders.json": "pnpm fuzz --encoders --out apps/fuzz/docs",
  "apps/fuzz/docs/async.json": "pnpm fuzz --async --out apps/fuzz/docs",
};

/** The committed reports of the repository at `root`, as paths from it. */
export function reportFiles(root) {
  return REPORT_DIRS.flatMap((dir) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir))
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => `${dir}/${f}`)
      : [],
  );
}

/** `git …` in `root`; null when it fails (no such commit or path, not a checkout). */
function git(root, args) {
  try {
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    }).trim();
  } catch {
    return null;
  }
}

/**
 * Files whose change cannot move a figure: docs, tests and the changelog. A package.json
 * counts only when more than its `version` moved (a release bumps it); auto's
 * thresholds.json not when it was written from this very report (its provenance's commit).
 */
const inert = (file) => /\.md$|\.test\.[cm]?[jt]s$|\/__fixtures__\//.test(file);

function versionOnly(root, commit, file) {
  const read = (rev) => {
    const text = git(root, ["show", `${rev}:${file}`]);
    if (text === null) return null;
    const { version: _, ...rest } = JSON.parse(text);
    return JSON.stringify(rest);
  };
  const before = read(commit);
  return before !== null && before === read("HEAD");
}

function derivedFrom(root, commit, file) {
  if (posix.basename(file) !== "thresholds.json") return false;
  const text = git(root, ["show", `HEAD:${file}`]);
  return text !== null && JSON.parse(text).provenance?.commit === commit;
}

/**
 * Per committed report: when and at which commit it was measured, and, per measured package
 * that changed since, the files that changed and the commits that changed them (newest first).
 * `unknown` says why it cannot tell (no record, uncommitted changes, a commit not in history).
 * @param {string} root
 */
export function reportStatus(root) {
  return reportFiles(root).map((file) => {
    const report = JSON.parse(readFileSync(join(root, file), "utf8"));
    const measured = report.environment?.measured ?? report.measured;
    const date = report.environment?.date ?? report.date ?? null;
    const status = { file, date, commit: measured?.commit ?? null, changed: [], unknown: null };
    if (!measured) status.unknown = "records no measured package trees";
    else if (measured.dirty) status.unknown = "was measured with uncommitted changes";
    else if (git(root, ["cat-file", "-e", `${measured.commit}^{commit}`]) === null)
      status.unknown = `was measured at ${measured.commit.slice(0, 7)}, not in this history`;
    if (status.unknown) return status;
    for (const [dir, tree] of Object.entries(measured.trees)) {
      if (git(root, ["rev-parse", `HEAD:${dir}`]) === tree) continue;
      const files = (git(root, ["diff", "--name-only", measured.commit, "HEAD", "--", dir]) ?? "")
        .split("\n")
        .filter((f) => f && !inert(f))
        .filter(
          (f) => posix.basename(f) !== "package.json" || !versionOnly(root, measured.commit, f),
        )
        .filter((f) => !derivedFrom(root, measured.commit, f));
      if (files.length === 0) continue;
      const log = git(root, ["log", "--format=%h %s", `${measured.commit}..HEAD`, "--", ...files]);
      status.changed.push({ dir, files, commits: log ? log.split("\n") : [] });
    }
    return status;
  });
}

/** Every committed report that does not describe HEAD's packages, with how to remake it. */
export function staleReports(root) {
  if (git(root, ["rev-parse", "--git-dir"]) === null)
    return [`${root} is not a git checkout: cannot tell whether reports are current`];
  return reportStatus(root).flatMap(({ file, unknown, changed }) => {
    const again = REGENERATE[file] ? `: run \`${REGENERATE[file]}\`` : "";
    if (unknown) return [`${file} ${unknown}${again}`];
    if (changed.length === 0) return [];
    const what = changed.map((c) => `${c.dir} (${c.files.join(", ")})`).join("; ");
    return [`${file} is stale: changed since it was measured: ${what}${again}`];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stale = staleReports(process.cwd());
  for (const line of stale) console.error(line);
  if (stale.length > 0) {
    console.error("a release publishes only what the committed reports measured");
    process.exit(1);
  }
  console.log("every committed report measured today's packages");
}

// Whether the lab's committed reports still describe today's code. Each report records the
// git tree of every package it measured (`measured.trees`, written by the bench and the
// fuzzer through @snappykit/workspace/environment's measuredTrees); a report is stale when one
// of those packages' tree at HEAD differs, unless docs/report-exemptions.json lists that
// report, package and today's tree with why the change does not affect what it measured.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The folders whose `*.json` files are committed reports. */
const REPORT_DIRS = ["apps/bench/docs", "apps/fuzz/docs"];

/** The exemptions file: `[{ report, package, tree, why }]`. */
export const EXEMPTIONS = "docs/report-exemptions.json";

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

/** `git rev-parse HEAD:<dir>` in `root`; null when HEAD has no such folder. */
function treeAtHead(root, dir) {
  try {
    return execFileSync("git", ["rev-parse", `HEAD:${dir}`], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return null;
  }
}

const isGit = (root) => {
  try {
    execFileSync("git", ["rev-parse", "--git-dir"], { cwd: root, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/**
 * Every committed report that does not describe HEAD's packages, and every exemption that
 * no longer applies (nothing: `[]`).
 * @param {string} root
 */
export function staleReports(root) {
  if (!isGit(root))
    return [`${root} is not a git checkout: cannot tell whether reports are current`];
  const exemptions = existsSync(join(root, EXEMPTIONS))
    ? JSON.parse(readFileSync(join(root, EXEMPTIONS), "utf8"))
    : [];
  const problems = [];
  const used = new Set();
  for (const file of reportFiles(root)) {
    const report = JSON.parse(readFileSync(join(root, file), "utf8"));
    const measured = report.environment?.measured ?? report.measured;
    const again = REGENERATE[file] ? `: run \`${REGENERATE[file]}\`` : "";
    if (!measured) {
      problems.push(
        `${file} records no measured package trees (made before they were recorded)${again}`,
      );
      continue;
    }
    if (measured.dirty) {
      problems.push(`${file} was measured with uncommitted changes to its packages${again}`);
    }
    for (const dir of Object.keys(measured.trees)) {
      const tree = treeAtHead(root, dir);
      if (tree === measured.trees[dir]) continue;
      const exemption = exemptions.findIndex(
        (e) => e.report === file && e.package === dir && e.tree === tree,
      );
      if (exemption >= 0 && exemptions[exemption].why) {
        used.add(exemption);
        continue;
      }
      problems.push(
        `${file} measured ${dir} at tree ${measured.trees[dir].slice(0, 7)}, which is ${tree ? tree.slice(0, 7) : "gone"} now${again}, or list { report, package, tree, why } in ${EXEMPTIONS} when the change does not affect it`,
      );
    }
  }
  exemptions.forEach((e, i) => {
    if (!used.has(i)) {
      problems.push(
        `${EXEMPTIONS}: the exemption of ${e.report} for ${e.package} at ${String(e.tree).slice(0, 7)} matches no stale report (or gives no why): remove it`,
      );
    }
  });
  return problems;
}

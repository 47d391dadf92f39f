// Whether the lab's committed reports still describe today's code, as a release asks it
// (`bench docs --stale`, and `npm run version-packages` first): a report is stale when
// a package it measured changed since (reportStatus in @snappykit/workspace/environment;
// docs, tests and a release's version bump aside). `npm test` does not ask: a change to a
// library passes it, and the results page shows what changed since each report.
//
//   node apps/bench/src/docs/stale.js   the same gate with only @snappykit/workspace built
//                                       (npm run version-packages: no bench build first)
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { repoRoot } from "@snappykit/workspace";
import { reportStatus } from "@snappykit/workspace/environment";

const ADOPT = "npm run docs -- --adopt";

/** How each committed report is made again (CONTRIBUTING.md, Reports and results). */
export const REGENERATE = {
  "apps/bench/docs/sample-report.json": `pnpm bench --compare apps/bench/docs/sample-report.json && ${ADOPT}`,
  "apps/bench/docs/sweep.json": `pnpm bench sweep && ${ADOPT}`,
  "apps/bench/docs/soak.json": `pnpm bench soak && ${ADOPT}`,
  "apps/bench/docs/corpus.json": `npm run bench:corpus && ${ADOPT}`,
  "apps/bench/docs/reqresp.json": `npm run bench:reqresp && ${ADOPT}`,
  "apps/bench/docs/trials.json": `npm run bench:trials && ${ADOPT}`,
  "apps/fuzz/docs/safety.json": "pnpm fuzz --out apps/fuzz/docs",
  "apps/fuzz/docs/encoders.json": "pnpm fuzz --encoders --out apps/fuzz/docs",
  "apps/fuzz/docs/async.json": "pnpm fuzz --async --out apps/fuzz/docs",
};

const isGit = (root) => {
  try {
    execFileSync("git", ["rev-parse", "--git-dir"], { cwd: root, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/**
 * Every committed report of the repository at `root` that does not describe HEAD's
 * packages, with how to make it again (nothing: `[]`).
 * @param {string} root
 */
export function staleReports(root) {
  if (!isGit(root))
    return [`${root} is not a git checkout: cannot tell whether reports are current`];
  return reportStatus(root).flatMap(({ file, unknown, changed }) => {
    const again = REGENERATE[file] ? `: run \`${REGENERATE[file]}\`` : "";
    if (unknown) return [`${file} ${unknown}${again}`];
    if (changed.length === 0) return [];
    const what = changed.map((c) => `${c.dir} (${c.files.join(", ")})`).join("; ");
    return [`${file} is stale: changed since it was measured: ${what}${again}`];
  });
}

/** Lists the stale reports on `stderr`; the exit code (1: a release must not go out). */
export function staleGate(root = repoRoot, stderr = process.stderr) {
  const problems = staleReports(root);
  for (const p of problems) stderr.write(`${p}\n`);
  if (problems.length === 0) return 0;
  stderr.write("a release publishes only what the committed reports measured\n");
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = staleGate();

#!/usr/bin/env node
// Does `--compare` find a planted slowdown, and only it? One baseline, four runs with ts
// slowed by 20 % (`--slow-down ts=20`) and four plain reruns of the same commit, each
// compared with the baseline; the verdicts of every run go to one trials.json, which
// `npm run docs -- --adopt` commits and apps/bench's README tables. Run on a quiet machine:
// under load the forks spread too far for any test (the report records the load).
//
//   npm run bench:trials [-- --out <dir>] [--runs <n>]
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "@snappykit/workspace";

/**
 * The selection of the trials: 24 adapter cases and the raw libraries' overhead cases, each
 * fork's processes on one CPU (`--pin`): this VM's two CPUs run at different speeds, and
 * unpinned, codecs of one fork that land on different CPUs carry that into their ratios.
 * The bench's own fork count (9, then more for rows whose ratios stay wide), not a fixed 7:
 * ts's ratio to napi on the attestation (~0.3 µs) moves ±10 % from fork to fork, and with 7
 * forks a side a planted +20 % cleared the false-discovery step in about half the draws
 * (resampled from a 21-fork run's ratios; 99 % with 21 forks).
 */
export const SELECTION = [
  "--codec",
  "napi,ts,snappyjs,libsnappy",
  "--payload",
  "single-attestation,beacon-block,blob-sidecar",
  "--op",
  "compress,uncompress",
  "--pin",
];
export const SLOWED = { codec: "ts", percent: 20 };

/**
 * The fewest and most forks a case of `report` got: adaptive forks give rows whose ratios
 * stay wide more.
 * @param {any} report a bench.json
 * @returns {[number, number]}
 */
export function forkRange(report) {
  const forks = report.cases.map((c) => c.forks);
  return [Math.min(...forks), Math.max(...forks)];
}

/**
 * One compared run as the trials table reads it: which cases its verdicts flagged, split
 * into the slowed codec's and the others'.
 * @param {string} name
 * @param {any} report a bench.json written with `--compare`
 */
export function trialRun(name, report) {
  const flagged = report.comparison.filter((c) => c.verdict === "slower" || c.verdict === "faster");
  const ofSlowed = (c) => c.codec === SLOWED.codec;
  return {
    name,
    command: report.command,
    load: report.environment.load ?? null,
    forks: forkRange(report),
    cases: report.comparison.length,
    testable: report.compared.testable,
    slowedCases: report.comparison.filter(ofSlowed).length,
    flagged: flagged.map((c) => ({
      key: c.key,
      verdict: c.verdict,
      judgedBy: c.judgedBy,
      change: (c.judgedBy === "ratio" ? c.ratio : c.absolute).change,
    })),
    slowedFlaggedSlower: flagged.filter((c) => ofSlowed(c) && c.verdict === "slower").length,
    othersFlagged: flagged.filter((c) => !ofSlowed(c)).length,
  };
}

function main() {
  const { values } = parseArgs({
    options: {
      out: { type: "string", default: join(repoRoot, "apps/bench/results/trials") },
      runs: { type: "string", default: "4" },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
    console.error(`--runs takes a whole number from 1 to 20; got "${values.runs}"`);
    process.exit(2);
  }
  // Run from the repository's root with paths from it, so the commands the reports record
  // name no folder of this machine.
  const dir = relative(repoRoot, resolve(values.out)) || ".";
  const bench = (name, extra) => {
    const out = join(dir, name);
    const args = [
      "--expose-gc",
      "apps/bench/dist/cli.js",
      ...SELECTION,
      "--out",
      out,
      "--format",
      "json,md",
      ...extra,
    ];
    console.error(`trials: ${name} (node ${args.slice(1).join(" ")})`);
    const started = Date.now();
    const run = spawnSync(process.execPath, args, {
      cwd: repoRoot,
      stdio: ["ignore", "ignore", "inherit"],
    });
    // Exit 1 is a significant regression: what a planted run should find.
    if (run.status !== 0 && run.status !== 1) {
      console.error(`trials: ${name} failed (exit ${run.status ?? run.signal})`);
      process.exit(3);
    }
    console.error(`trials: ${name} done in ${Math.round((Date.now() - started) / 1000)} s`);
    return JSON.parse(readFileSync(join(repoRoot, out, "bench.json"), "utf8"));
  };
  mkdirSync(values.out, { recursive: true });
  const base = bench("base", []);
  const baseline = ["--compare", join(dir, "base", "bench.json")];
  const slowDown = ["--slow-down", `${SLOWED.codec}=${SLOWED.percent}`];
  const planted = [];
  const reruns = [];
  for (let i = 1; i <= runs; i++) {
    planted.push(trialRun(`slow${i}`, bench(`slow${i}`, [...slowDown, ...baseline])));
    reruns.push(trialRun(`rerun${i}`, bench(`rerun${i}`, baseline)));
  }
  const trials = {
    schema: "snappykit-bench-trials/1",
    command: `npm run bench:trials${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
    selection: SELECTION.join(" "),
    slowed: SLOWED,
    environment: base.environment,
    base: { command: base.command, load: base.environment.load ?? null, forks: forkRange(base) },
    planted,
    reruns,
  };
  const file = join(values.out, "trials.json");
  writeFileSync(file, `${JSON.stringify(trials, null, 2)}\n`);
  for (const r of [...planted, ...reruns]) {
    console.log(
      `${r.name.padEnd(7)} ${r.slowedFlaggedSlower}/${r.slowedCases} ts cases slower, ${r.othersFlagged}/${r.cases - r.slowedCases} others flagged`,
    );
  }
  console.error(`trials: ${relative(process.cwd(), file)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();

#!/usr/bin/env node
// Commits since a base (default `main`) whose subject is over 72 characters
// (CONTRIBUTING.md, Commits): new commits only, history stays as it is.
//
//   node scripts/commit-subjects.mjs [base]   exit 1 when one is too long
import { execFileSync } from "node:child_process";

export const LIMIT = 72;

/** `[hash, subject]` of each commit in `base..HEAD` whose subject is over LIMIT characters. */
export function longSubjects(base = "main", cwd = process.cwd()) {
  const log = execFileSync("git", ["log", "--format=%h%x09%s", `${base}..HEAD`], {
    cwd,
    encoding: "utf8",
  });
  return log
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"))
    .filter(([, subject]) => [...subject].length > LIMIT);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const long = longSubjects(process.argv[2]);
  for (const [hash, subject] of long) {
    console.error(`${hash}: ${[...subject].length} characters (at most ${LIMIT}): ${subject}`);
  }
  process.exit(long.length > 0 ? 1 : 0);
}

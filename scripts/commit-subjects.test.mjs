import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { longSubjects } from "./commit-subjects.mjs";

const root = mkdtempSync(join(tmpdir(), "commit-subjects-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
const commit = (subject) => {
  writeFileSync(join(root, "a.txt"), subject);
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", subject);
};

describe("longSubjects", () => {
  it("flags only the commits after the base whose subject is over 72 characters", () => {
    git("init", "-q", "-b", "main");
    commit(`old: ${"x".repeat(80)}`);
    git("branch", "base");
    commit(`docs: ${"x".repeat(66)}`); // 72: allowed
    const long = `docs: ${"x".repeat(67)}`;
    commit(long);
    expect(longSubjects("base", root).map(([, s]) => s)).toEqual([long]);
    expect(longSubjects("HEAD", root)).toEqual([]);
  });
});

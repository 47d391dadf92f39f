// The check that the committed reports describe today's packages, on a scratch repository.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXEMPTIONS, staleReports } from "./report-trees.mjs";

const root = mkdtempSync(join(tmpdir(), "report-trees-"));
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
const put = (path, text) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};
const commit = (subject) => {
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", subject);
};
/** A report of the bench (trees under environment) or the fuzzer (trees at the top). */
const report = (path, trees, bench = true) => {
  const measured = { commit: git("rev-parse", "HEAD"), dirty: false, trees };
  put(path, JSON.stringify(bench ? { environment: { measured } } : { measured }));
};

beforeAll(() => {
  git("init", "-q", "-b", "main");
  put("packages/ts/src/index.ts", "export const a = 1;\n");
  put("packages/core/index.ts", "export {};\n");
  commit("packages");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("staleReports", () => {
  it("passes a report whose packages are as measured, and fails one made before trees were recorded", () => {
    const trees = { "packages/ts": git("rev-parse", "HEAD:packages/ts") };
    report("apps/bench/docs/sweep.json", trees);
    report("apps/fuzz/docs/safety.json", trees, false);
    put("apps/fuzz/docs/async.json", JSON.stringify({ date: "2026-11-30" }));
    commit("reports");
    expect(staleReports(root)).toEqual([
      "apps/fuzz/docs/async.json records no measured package trees (made before they were recorded): run `pnpm fuzz --async --out apps/fuzz/docs`",
    ]);
    rmSync(join(root, "apps/fuzz/docs/async.json"));
    commit("no async report");
    expect(staleReports(root)).toEqual([]);
  });

  it("fails a report once a package it measured changes, not for one it did not measure", () => {
    put("packages/core/index.ts", "export const b = 2;\n");
    commit("core");
    expect(staleReports(root)).toEqual([]);
    put("packages/ts/src/index.ts", "export const a = 2;\n");
    commit("ts: a faster a");
    const problems = staleReports(root);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^apps\/bench\/docs\/sweep\.json measured packages\/ts at tree \w{7}, which is \w{7} now: run `pnpm bench --sweep && npm run docs -- --adopt`, or list/,
    );
    expect(problems[1]).toMatch(/^apps\/fuzz\/docs\/safety\.json measured packages\/ts/);
  });

  it("accepts the change for the report an exemption names with today's tree and a why", () => {
    const tree = git("rev-parse", "HEAD:packages/ts");
    const why = "a comment reworded";
    put(
      EXEMPTIONS,
      JSON.stringify([{ report: "apps/fuzz/docs/safety.json", package: "packages/ts", tree, why }]),
    );
    commit("exempt");
    expect(staleReports(root)).toEqual([
      expect.stringMatching(/^apps\/bench\/docs\/sweep\.json measured packages\/ts/),
    ]);
    // Without a why, or once the package changes again, the exemption holds nothing.
    put(
      EXEMPTIONS,
      JSON.stringify([{ report: "apps/fuzz/docs/safety.json", package: "packages/ts", tree }]),
    );
    commit("no why");
    expect(staleReports(root)).toContainEqual(
      expect.stringMatching(/^apps\/fuzz\/docs\/safety\.json measured packages\/ts/),
    );
    put(
      EXEMPTIONS,
      JSON.stringify([{ report: "apps/fuzz/docs/safety.json", package: "packages/ts", tree, why }]),
    );
    put("packages/ts/src/index.ts", "export const a = 3;\n");
    commit("ts again");
    const problems = staleReports(root);
    expect(problems).toContainEqual(
      expect.stringMatching(/^apps\/fuzz\/docs\/safety\.json measured packages\/ts/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^docs\/report-exemptions\.json: the exemption of apps\/fuzz\/docs\/safety\.json for packages\/ts at \w{7} matches no stale report/,
      ),
    );
  });

  it("fails a report measured with uncommitted changes, and a package folder that is gone", () => {
    const measured = { commit: "x", dirty: true, trees: { "packages/gone": "0123456789" } };
    put("apps/bench/docs/soak.json", JSON.stringify({ environment: { measured } }));
    commit("soak");
    const problems = staleReports(root).filter((p) => p.startsWith("apps/bench/docs/soak.json"));
    expect(problems).toEqual([
      "apps/bench/docs/soak.json was measured with uncommitted changes to its packages: run `pnpm bench --soak && npm run docs -- --adopt`",
      expect.stringContaining("measured packages/gone at tree 0123456, which is gone now"),
    ]);
  });

  it("says so outside a git checkout", () => {
    const plain = mkdtempSync(join(tmpdir(), "report-trees-plain-"));
    try {
      expect(staleReports(plain)).toEqual([expect.stringMatching(/is not a git checkout/)]);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

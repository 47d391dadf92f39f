// What changed since each report was measured, on a scratch repository.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reportStatus } from "@snappykit/workspace/environment";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleReports } from "./stale.js";

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
const report = (path, dirs, bench = true) => {
  const trees = Object.fromEntries(dirs.map((d) => [d, git("rev-parse", `HEAD:${d}`)]));
  const measured = { commit: git("rev-parse", "HEAD"), dirty: false, trees };
  put(path, JSON.stringify(bench ? { environment: { measured } } : { measured }));
};

beforeAll(() => {
  git("init", "-q", "-b", "main");
  put("packages/ts/src/index.ts", "export const a = 1;\n");
  put("packages/ts/package.json", JSON.stringify({ name: "ts", version: "0.0.0" }));
  put("packages/core/index.ts", "export {};\n");
  commit("packages");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("staleReports", () => {
  it("passes reports whose packages are as measured, and fails one made before trees were recorded", () => {
    report("apps/bench/docs/sweep.json", ["packages/ts"]);
    report("apps/fuzz/docs/safety.json", ["packages/ts"], false);
    put("apps/fuzz/docs/async.json", JSON.stringify({ date: "2026-11-30" }));
    commit("reports");
    expect(staleReports(root)).toEqual([
      "apps/fuzz/docs/async.json records no measured package trees: run `pnpm fuzz --async --out apps/fuzz/docs`",
    ]);
    rmSync(join(root, "apps/fuzz/docs/async.json"));
    commit("no async report");
    expect(staleReports(root)).toEqual([]);
  });

  it("passes docs, tests and a version bump; fails on source, for the reports that measured it", () => {
    put("packages/core/index.ts", "export const b = 2;\n");
    put("packages/ts/README.md", "# ts\n");
    put("packages/ts/src/index.test.ts", "// a test\n");
    put("packages/ts/package.json", JSON.stringify({ name: "ts", version: "0.1.0" }));
    commit("core, and ts's docs, tests and version");
    expect(staleReports(root)).toEqual([]);
    put("packages/ts/src/index.ts", "export const a = 2;\n");
    commit("ts: a faster a");
    const problems = staleReports(root);
    expect(problems).toEqual([
      expect.stringMatching(
        /^apps\/bench\/docs\/sweep\.json is stale: changed since it was measured: packages\/ts \(packages\/ts\/src\/index\.ts\): run `pnpm bench/,
      ),
      expect.stringMatching(/^apps\/fuzz\/docs\/safety\.json is stale: .*packages\/ts/),
    ]);
    const [sweep] = reportStatus(root);
    expect(sweep.changed).toEqual([
      {
        dir: "packages/ts",
        files: ["packages/ts/src/index.ts"],
        commits: [expect.stringMatching(/^\w+ ts: a faster a$/)],
      },
    ]);
  });

  it("fails a report measured with uncommitted changes, or at a commit not in the history", () => {
    const dirty = { commit: git("rev-parse", "HEAD"), dirty: true, trees: {} };
    put("apps/bench/docs/soak.json", JSON.stringify({ environment: { measured: dirty } }));
    const gone = { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false, trees: {} };
    put("apps/bench/docs/corpus.json", JSON.stringify({ environment: { measured: gone } }));
    commit("soak, corpus");
    const problems = staleReports(root);
    expect(problems).toContain(
      "apps/bench/docs/soak.json was measured with uncommitted changes: run `pnpm bench soak && npm run docs -- --adopt`",
    );
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^apps\/bench\/docs\/corpus\.json was measured at 0123456, not in this history/,
      ),
    );
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

// The docs check of `npm test`: the results page and the root README are what
// generate.js writes from the committed reports, and each kind of drift the check exists
// to catch makes it fail; a change to a library alone does not (a release refuses it instead).
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCodec as createAuto } from "@snappykit/auto";
import { loadPayloads } from "@snappykit/fixtures";
import { repoRoot } from "@snappykit/workspace";
import { afterAll, describe, expect, it } from "vitest";
import { adoptReports, checkDocs, docsCommand, renderDoc, writeDocs } from "./generate.js";
import { generatedBlocks } from "./markers.js";
import { docsContext } from "./sources.js";
import { staleReports } from "./stale.js";

const context = docsContext();
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
/** The check's problems with the docs, `file` read as `text`; the reports' own are tested apart. */
const check = (file, text, ctx = context) =>
  checkDocs({ context: ctx, texts: new Map([[file, text]]) });

/** The README with the first ratio ("0.45×") of its results table changed by hand. */
function handEdited() {
  const block = generatedBlocks(readme).find((b) => b.section === "bench-ratios");
  const ratio = /\d+\.\d\d×/.exec(block.body);
  const edited = ratio[0] === "9.99×" ? "9.98×" : "9.99×";
  const at = block.start + ratio.index;
  return readme.slice(0, at) + edited + readme.slice(at + ratio[0].length);
}

describe("the repository's docs", () => {
  it("are what the generator writes from the committed reports, with every link held", () => {
    expect(checkDocs({ context })).toEqual([]);
  });
});

describe("a change to a library's source alone, committed in a scratch clone", () => {
  const clone = mkdtempSync(join(tmpdir(), "docs-library-change-"));
  afterAll(() => rmSync(clone, { recursive: true, force: true }));
  const git = (...args) => execFileSync("git", args, { cwd: clone, encoding: "utf8" });

  it("passes the docs check, and the release's report check refuses it", () => {
    execFileSync("git", ["clone", "--quiet", "--shared", repoRoot, clone]);
    appendFileSync(join(clone, "packages/ts/src/compress.ts"), "\n// a library change\n");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "ts: a change");
    expect(checkDocs({ root: clone, context })).toEqual([]);
    expect(staleReports(clone)).toContainEqual(
      expect.stringMatching(
        /^apps\/bench\/docs\/sample-report\.json is stale: .*packages\/ts \([^)]*packages\/ts\/src\/compress\.ts/,
      ),
    );
    let said = "";
    const io = { stdout: { write: () => true }, stderr: { write: (s) => (said += s) } };
    expect(docsCommand({ stale: true }, io, clone)).toBe(1);
    expect(said).toMatch(/sample-report\.json is stale/);
  });
});

describe("the check", () => {
  const dir = mkdtempSync(join(tmpdir(), "docs-check-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails when a generated number is edited by hand, and regenerating restores it", () => {
    const edited = handEdited();
    expect(check("README.md", edited)).toEqual([
      expect.stringMatching(/^README\.md:\d+: a generated block differs .*npm run docs/),
    ]);
    expect(renderDoc("README.md", edited, context)).toBe(readme);

    // The same through the files `npm run docs` rewrites, in a copy of the README.
    writeFileSync(join(dir, "README.md"), edited);
    expect(writeDocs({ root: dir, context })).toEqual(["README.md"]);
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe(readme);
  });

  it("fails when a report changes and the docs were not regenerated", () => {
    const bench = structuredClone(context.bench);
    const cell = bench.relative
      .find((r) => r.payload === "beacon-block")
      .cells.find((c) => c.codec === "ts");
    cell.ratio *= 1.5;
    const problems = check("README.md", readme, { ...context, bench });
    expect(problems).toContainEqual(
      expect.stringMatching(/^README\.md:\d+: a generated block differs/),
    );
    expect(problems.every((p) => p.includes("a generated block differs"))).toBe(true);
  });

  it("fails on a generated block anywhere but the results page and the root README", () => {
    const doc = "# x\n\n<!-- generated: fuzz-codec ts -->\n<!-- /generated -->\n";
    expect(check("packages/ts/README.md", doc)).toEqual([
      expect.stringMatching(
        /^packages\/ts\/README\.md:3: a generated block outside README\.md and docs\/results\.md/,
      ),
    ]);
    expect(check("docs/results.md", doc).join("\n")).not.toMatch(/outside/);
  });

  it("fails on a link to a file or heading the repository does not hold", () => {
    const links = `${readme}\nSee [the plan](docs/no-such-plan.md) and [results](#no-such-heading).\n`;
    expect(check("README.md", links)).toEqual([
      "README.md: links to docs/no-such-plan.md, which the repository does not hold",
      "README.md: links to #no-such-heading: no such heading",
    ]);
  });

  it("says how to measure an adapter the committed reports do not have yet", () => {
    const doc =
      "<!-- generated: fuzz-codec new-one -->\n<!-- /generated -->\n\n<!-- generated: bench-codec new-one -->\n<!-- /generated -->\n";
    const text = renderDoc("docs/results.md", doc, context);
    expect(text).toContain("`pnpm fuzz --codec new-one` runs it");
    expect(text).toContain("`npm run bench -- --codec new-one` times it");
  });

  it("gives every adapter of the workspace a section of its own on the results page", () => {
    const text = renderDoc(
      "docs/results.md",
      "<!-- generated: adapter-results -->\n<!-- /generated -->\n",
      context,
    );
    const adapters = context.packages.filter((p) => p.adapter).map((p) => p.relDir.slice(9));
    expect(text.match(/^### .+$/gm)).toEqual(adapters.map((id) => `### ${id}`));
  });

  it("names the file and line of a block whose section does not exist", () => {
    expect(
      check("README.md", "# x\n\n<!-- generated: nonsense -->\n<!-- /generated -->\n"),
    ).toEqual([expect.stringMatching(/^README\.md:3: no section "nonsense"/)]);
  });
});

describe("npm run docs -- --adopt", () => {
  const root = mkdtempSync(join(tmpdir(), "docs-adopt-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const put = (path, date, text = "") => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(
      join(root, path),
      path.endsWith(".json") ? JSON.stringify({ environment: { date } }) : text,
    );
  };
  const read = (path) => readFileSync(join(root, path), "utf8");

  it("copies a newer complete run over the committed report, every format it has", () => {
    put("apps/bench/docs/sample-report.json", "2026-11-30T00:00:00Z");
    put("apps/bench/docs/sample-report.md", "", "old");
    put("apps/bench/results/bench.json", "2026-12-01T00:00:00Z");
    put("apps/bench/results/bench.md", "", "new");
    const log = [];
    adoptReports(root, (line) => log.push(line));
    expect(read("apps/bench/docs/sample-report.md")).toBe("new");
    expect(read("apps/bench/docs/sample-report.json")).toContain("2026-12-01");
    expect(existsSync(join(root, "apps/bench/docs/sample-report.svg"))).toBe(false);
    expect(log).toEqual([expect.stringContaining("apps/bench/docs/sample-report.{json,md}")]);
  });

  it("keeps the committed report when the run is not newer, and refuses one missing a format", () => {
    put("apps/bench/docs/sweep.json", "2026-12-02T00:00:00Z");
    put("apps/bench/results/sweep.json", "2026-12-01T00:00:00Z");
    const log = [];
    adoptReports(root, (line) => log.push(line));
    expect(log).toContainEqual(expect.stringMatching(/sweep\.json is not newer .*kept/));
    expect(read("apps/bench/docs/sweep.json")).toContain("2026-12-02");

    put("apps/bench/docs/soak.json", "2026-11-30T00:00:00Z");
    put("apps/bench/docs/soak.md", "", "old");
    put("apps/bench/results/soak.json", "2026-12-01T00:00:00Z");
    expect(() => adoptReports(root, () => {})).toThrow(/results\/soak has no md/);
  });
});

describe("bench-ratios", () => {
  const render = (args) =>
    renderDoc("x.md", `<!-- generated: bench-ratios ${args} -->\n<!-- /generated -->\n`, context);

  it("tables the standard corpus's run with report=corpus, named by the script that made it", () => {
    const text = render("report=corpus codecs=ts");
    expect(text).toContain("`npm run bench:corpus` on ");
    expect(text).toContain("(apps/bench/docs/corpus.md)");
    expect(text).toMatch(/\| alice29\.txt \(149 KiB\) +\| compress +\|/);
    expect(text).not.toContain("--data");
  });

  it("refuses a report it does not know", () => {
    expect(() => render("report=sweep")).toThrow(/no report "sweep"/);
  });
});

describe("reqresp", () => {
  const render = (args, ctx = context) =>
    renderDoc("x.md", `<!-- generated: reqresp${args} -->\n<!-- /generated -->\n`, ctx);

  it("says how to make the run when none is committed", () => {
    expect(render("", { ...context, reqresp: null })).toContain(
      "No req/resp run is committed yet: `npm run bench:reqresp`",
    );
  });

  it("answers from the committed run: the pick, the table with peak memory, the fuzzer's rows", () => {
    expect(context.reqresp).not.toBeNull();
    const text = render("");
    expect(text).toMatch(/\*\*For req\/resp: [a-z-]+( over [a-z]+)?\*\* \(/);
    expect(text).toContain("`npm run bench:reqresp` on ");
    expect(text).toContain("peak external memory ÷ response");
    expect(render(" answer")).not.toContain("| response");
    const stats = context.safety.rows[0].total;
    const framed = { id: "chainsafe-snappy-stream", target: "framed", library: "x", sets: {} };
    const row = {
      ...framed,
      total: { ...stats, counts: { ...stats.counts, hang: 7 } },
      missed: [],
    };
    const safety = {
      ...context.safety,
      framedN: { crafted: 17, mutated: 500 },
      rows: [...context.safety.rows, row],
    };
    expect(render("", { ...context, safety })).toMatch(
      /\| chainsafe-snappy-stream +\| +[\d,]+ \| +\d+ \| +\d+ \| +\d+ \| +7 \|/,
    );
  });
});

describe("auto-routes", () => {
  const render = (ctx = context) =>
    renderDoc("x.md", "<!-- generated: auto-routes -->\n<!-- /generated -->\n", ctx);

  it("puts each payload under the ops auto sends some of its items to native for, or under neither", async () => {
    const text = render();
    const line = (start) => text.split("\n").find((l) => l.startsWith(start)) ?? "";
    const [compress, uncompress, neither] = ["- compress:", "- uncompress:", "- neither"].map(line);
    const names = context.manifest.payloads.map((p) => p.name);
    const named = (l, name) => new RegExp(`[ :]${name}( \\(|,|$)`).test(l);
    for (const name of names) {
      const native = named(compress, name) || named(uncompress, name);
      expect([name, native]).toEqual([name, !named(neither, name)]);
    }
    // Against auto itself: a payload is under an op when auto sends an item of it to native.
    const auto = await createAuto();
    for (const { name, items } of loadPayloads()) {
      const native = items.some((item) => auto.explain("compress", item).backend === "napi");
      expect([name, named(compress, name)]).toEqual([name, native]);
      const decoded = items.some(
        (item) => auto.explain("uncompress", auto.compress(item)).backend === "napi",
      );
      expect([name, "uncompress", named(uncompress, name)]).toEqual([name, "uncompress", decoded]);
    }
    expect(text).toContain(`among the bench's ${names.length} payloads`);
  });

  it("refuses thresholds other than the ones @snappykit/auto loaded", () => {
    const t = context.thresholds;
    const edited = { ...t, compress: { ...t.compress, compressible: t.compress.compressible + 1 } };
    expect(() => render({ ...context, thresholds: edited })).toThrow(/not the ones/);
  });
});

describe("the trials table", () => {
  const environment = {
    date: "2026-12-01T18:00:00Z",
    commit: "0123456789abcdef0123456789abcdef01234567",
    cpu: "AMD EPYC",
    cores: 2,
    node: "v20.20.2",
    runtime: { name: "node26", version: "26.10.0" },
    load: { cores: 2, start: [0.1, 0.2, 0.3], end: [0.9, 0.4, 0.3] },
  };
  const run = (name, flagged, extra = {}) => ({
    name,
    cases: 40,
    testable: 40,
    slowedCases: 10,
    slowedFlaggedSlower: 0,
    othersFlagged: 0,
    flagged,
    load: environment.load,
    ...extra,
  });
  const trials = {
    command: "npm run bench:trials",
    slowed: { codec: "ts", percent: 20 },
    environment,
    base: { load: environment.load },
    planted: [run("slow1", [{}, {}], { slowedFlaggedSlower: 10, othersFlagged: 1 })],
    reruns: [run("rerun1", [{ key: "ts/adapter/x/compress" }])],
  };
  const table = (t) =>
    renderDoc("x.md", "<!-- generated: trials -->\n<!-- /generated -->\n", {
      ...context,
      trials: t,
    });

  it("counts the slowed codec's finds in a planted run and every flag of a rerun as a false alarm", () => {
    const text = table(trials);
    expect(text).toMatch(/\| slow1 +\| +10 of 10 \| +1 of 30 \|/);
    expect(text).toMatch(/\| rerun1 +\| +— \| +1 of 40 \|/);
    expect(text).toContain("Node 26.10.0");
    expect(text).toContain("0.1 → 0.9");
  });

  it("gives each run's fewest and most forks a case, and a dash where trials did not record them", () => {
    const adaptive = {
      ...trials,
      base: { load: environment.load, forks: [9, 21] },
      planted: [{ ...trials.planted[0], forks: [9, 9] }],
    };
    const text = table(adaptive);
    expect(text).toContain("9–21 forks a case");
    expect(text).toMatch(/\| slow1 +\|.*\| +9 \| 0\.1 → 0\.9/);
    expect(text).toMatch(/\| rerun1 +\|.*\| +— \| 0\.1 → 0\.9/);
  });

  it("says how to make the report when there is none", () => {
    expect(() => table(null)).toThrow(/npm run bench:trials/);
  });
});

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "./main.js";
import type { Io } from "./measure/progress.js";
import type { Reports } from "./model/outcome.js";
import { FORMATS, type Format } from "./render/formats.js";

function capture(): { io: Io; out: () => string; err: () => string } {
  const sink = () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join("") };
  };
  const o = sink();
  const e = sink();
  return { io: { stdout: o.stream, stderr: e.stream }, out: o.text, err: e.text };
}

describe("main", () => {
  it("prints help and exits 0", async () => {
    const c = capture();
    expect(await main(["--help"], c.io)).toBe(0);
    expect(c.out()).toContain("--quick");
  });

  it("exits 2 on a bad flag, pointing to --help", async () => {
    const c = capture();
    expect(await main(["--qiuck"], c.io)).toBe(2);
    expect(c.err()).toMatch(/error: .*--qiuck[\s\S]*see --help/);
  });

  it("suggests the flag a typo was meant to be", async () => {
    const c = capture();
    expect(await main(["--codc", "ts"], c.io)).toBe(2);
    expect(c.err()).toMatch(/unknown flag --codc for `bench run` \(did you mean "--codec"\?\)/);
  });

  it("takes the arguments after a leading -- (`pnpm bench -- list`)", async () => {
    const c = capture();
    expect(await main(["--", "list"], c.io)).toBe(0);
    expect(c.out()).toMatch(/^codecs:/);
  });

  it("exits 2 on an unknown codec, suggesting one and listing the valid ones", async () => {
    const c = capture();
    expect(await main(["--codec", "napi,snapyjs"], c.io)).toBe(2);
    expect(c.err()).toMatch(
      /unknown codec "snapyjs" \(did you mean "snappyjs"\?\); valid: .*libsnappy.*napi/,
    );
  });

  it("exits 2 on an unknown payload, suggesting one and listing the valid ones", async () => {
    const c = capture();
    expect(await main(["--payload", "beacon-blok"], c.io)).toBe(2);
    expect(c.err()).toMatch(
      /unknown payload "beacon-blok" \(did you mean "beacon-block"\?\); valid: .*beacon-block.*all/,
    );
  });

  it("exits 2 on an unknown op", async () => {
    const c = capture();
    expect(await main(["--op", "zip"], c.io)).toBe(2);
    expect(c.err()).toMatch(/unknown op "zip"; valid: compress, uncompress/);
  });

  it("rejects a --compare file before any timing", async () => {
    const c = capture();
    const started = performance.now();
    expect(await main(["--compare", "/nonexistent/bench.json"], c.io)).toBe(2);
    expect(c.err()).toMatch(/--compare: cannot read report \/nonexistent\/bench.json/);
    expect(c.err()).not.toContain("gate:");
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it.each([
    [
      "a missing file",
      ["/nonexistent/block.ssz"],
      /--data \/nonexistent\/block.ssz: no such file or folder/,
    ],
    ["/dev/null", ["/dev/null"], /neither a file nor a folder/],
  ])("rejects --data of %s in under 2 s, before anything loads", async (_what, paths, message) => {
    const c = capture();
    const started = performance.now();
    expect(
      await main(
        paths.flatMap((p) => ["--data", p]),
        c.io,
      ),
    ).toBe(2);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(c.err()).toMatch(message);
    expect(c.err()).not.toMatch(/gate:|unavailable:/);
  });

  it("refuses --fail-on-regression before timing when a run's forks can test nothing", async () => {
    const c = capture();
    const baseline = fileURLToPath(new URL("./__fixtures__/report.json", import.meta.url));
    const argv = ["--quick", "--compare", baseline, "--fail-on-regression", "--codec", "ts"];
    expect(await main(argv, c.io)).toBe(2);
    expect(c.err()).toMatch(
      /nothing would be testable: 0 of \d+ cases testable \(needs ≥ 4 forks a side; this run times 3 forks a case \(--quick\)\)/,
    );
    expect(c.err()).not.toContain("gate:");
    // A 3-fork baseline cannot be tested against either, whatever this run's forks.
    const d = capture();
    expect(await main([...argv.slice(1), "--forks", "5"], d.io)).toBe(2);
    expect(d.err()).toMatch(/the baseline has 3 forks a case/);
  });

  it("merges reports into one md/json/svg, and refuses a bad file before writing anything", async () => {
    const recorded = fileURLToPath(new URL("./__fixtures__/report.json", import.meta.url));
    const out = mkdtempSync(join(tmpdir(), "bench-merge-"));
    const c = capture();
    expect(await main(["merge", recorded, recorded, "--out", out], c.io)).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["merge.json", "merge.md", "merge.svg"]);
    expect(JSON.parse(readFileSync(join(out, "merge.json"), "utf8")).runs).toHaveLength(2);
    expect(c.err()).not.toContain("gate:");
    const bad = capture();
    expect(await main(["merge", recorded, "/nonexistent/b.json"], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/merge: cannot read report \/nonexistent\/b.json/);
  });

  it("exits 2 when the selection leaves nothing to time, naming codecs that could", async () => {
    const c = capture();
    expect(await main(["--codec", "ts", "--op", "compress-async"], c.io)).toBe(2);
    expect(c.err()).toMatch(/nothing to time: .*compress-async.*thread-pool API: .*napi/);
  });

  it("exits 2 on --slow-down of a codec the run does not time", async () => {
    const c = capture();
    expect(await main(["--codec", "ts", "--slow-down", "snappyjs=20"], c.io)).toBe(2);
    expect(c.err()).toMatch(/unknown --slow-down codec "snappyjs"/);
  });

  it("renders a saved report again beside it, under its own name, its figures untouched", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-render-"));
    const saved = readFileSync(new URL("./__fixtures__/report.json", import.meta.url), "utf8");
    writeFileSync(join(dir, "run.json"), saved);
    const c = capture();
    expect(await main(["render", join(dir, "run.json")], c.io)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["run.json", "run.md", "run.svg"]);
    expect(readFileSync(join(dir, "run.json"), "utf8")).toBe(saved);
    expect(readFileSync(join(dir, "run.svg"), "utf8")).toMatch(/^<svg /);
    const bad = capture();
    expect(await main(["render", join(dir, "run.json"), "--codec", "ts"], bad.io)).toBe(2);
    expect(bad.err()).toContain("unknown flag --codec for `bench render`");
    writeFileSync(join(dir, "not.json"), "{}");
    expect(await main(["render", join(dir, "not.json")], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/render: .*nor a sweep or soak report/);
  });

  it("lists codecs, payloads with the default set marked, and ops", async () => {
    const c = capture();
    expect(await main(["list"], c.io)).toBe(0);
    expect(c.out()).toMatch(/codecs:[\s\S]*payloads \(\* = default set\):[\s\S]*\* beacon-block/);
    // Every codec's library starts in one column, the longest id (napi-external) included.
    const codecLines = c.out().split("payloads")[0]!.split("\n").slice(1, -1);
    const starts = codecLines.map((l) => /^ {2}\S+\s+/.exec(l)![0].length);
    expect(codecLines.some((l) => l.includes("napi-external"))).toBe(true);
    expect(new Set(starts).size).toBe(1);
  });
});

// A format added the way CONTRIBUTING says: its renderers, one entry in the table. Each
// renderer writes what it can only know from the report it is given.
const dummy: Format = {
  extension: "txt",
  render: {
    bench: (r: Reports["bench"]) => `bench ${r.cases.length} cases of ${r.reference}`,
    sweep: (r: Reports["sweep"]) => `sweep ${r.points.length} points at ${r.sizes.join(",")}`,
    soak: (r: Reports["soak"]) => `soak ${r.rows.map((x) => `${x.codec}/${x.scenario}`).join(" ")}`,
  },
};
const formats = { ...FORMATS, dummy };

/** Run `argv` with the dummy format only; the files written and what the terminal got. */
async function runWithDummy(argv: string[]) {
  const out = mkdtempSync(join(tmpdir(), "bench-dummy-"));
  const c = capture();
  const code = await main([...argv, "--format", "dummy", "--out", out], c.io, formats);
  return {
    code,
    files: readdirSync(out).sort(),
    read: (f: string) => readFileSync(join(out, f), "utf8"),
    ...c,
  };
}

describe("the pipeline renders every mode through one formats table", () => {
  it("writes a new format for a payload run", async () => {
    const run = await runWithDummy([
      ...["--codec", "ts", "--payload", "single-attestation", "--op", "compress", "--forks", "0"],
    ]);
    expect(run.err()).not.toMatch(/error/);
    expect(run.code).toBe(0);
    expect(run.files).toEqual(["bench.txt"]);
    // ts and the reference napi, each through its adapter and its library called directly.
    expect(run.read("bench.txt")).toBe("bench 4 cases of napi");
    // The terminal's format printed the tables as always.
    expect(run.out()).toContain("Time per op");
  });

  it("times the user's own file (--data), named by it, outside the repository", async () => {
    const data = join(mkdtempSync(join(tmpdir(), "bench-user-")), "my-block.ssz");
    writeFileSync(
      data,
      new Uint8Array(5000).map((_, i) => (i * 7) % 13),
    );
    const run = await runWithDummy([
      "--data",
      data,
      "--codec",
      "ts",
      "--op",
      "compress",
      "--forks",
      "0",
    ]);
    expect(run.code).toBe(0);
    expect(run.read("bench.txt")).toBe("bench 4 cases of napi");
    expect(run.out()).toContain("my-block.ssz (4.88 KiB)");
  });

  it("writes it for a sweep", async () => {
    const run = await runWithDummy([
      ...["sweep", "--codec", "ts,napi", "--op", "compress", "--sizes", "64,4096", "--forks", "0"],
    ]);
    expect(run.code).toBe(0);
    expect(run.files).toEqual(["sweep.txt"]);
    expect(run.read("sweep.txt")).toBe("sweep 4 points at 64,4096");
    expect(run.out()).toMatch(/^compress, ts vs napi: /m);
  });

  it("writes it for a soak", async () => {
    const run = await runWithDummy([
      ...["soak", "--codec", "ts", "--seconds", "1", "--rounds", "1"],
    ]);
    expect(run.code).toBe(0);
    expect(run.files).toEqual(["soak.txt"]);
    expect(run.read("soak.txt")).toBe("soak ts/gossip ts/big-blob");
    expect(run.out()).toMatch(/^codec +scenario/m);
  });

  it("leaves out a format with no renderer for the run's kind", async () => {
    const benchOnly = {
      ...FORMATS,
      dummy: { extension: "txt", render: { bench: dummy.render.bench! } },
    };
    const out = mkdtempSync(join(tmpdir(), "bench-dummy-"));
    const c = capture();
    const argv = ["sweep", "--codec", "ts", "--op", "compress", "--sizes", "64", "--forks", "0"];
    expect(await main([...argv, "--format", "dummy,md", "--out", out], c.io, benchOnly)).toBe(0);
    expect(readdirSync(out)).toEqual(["sweep.md"]);
  });

  it("rejects a format the table lacks before loading anything, listing the valid ones", async () => {
    const c = capture();
    expect(await main(["--format", "html"], c.io, formats)).toBe(2);
    expect(c.err()).toMatch(/unknown --format "html"; valid: json, md, svg, dummy/);
    expect(c.err()).not.toContain("unavailable");
  });
});

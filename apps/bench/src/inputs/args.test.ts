import { describe, expect, it } from "vitest";
import type { CliOptions } from "../model/options.js";
import { COMMANDS, didYouMean, help, parseCliArgs, selectNames, UsageError } from "./args.js";

/** A command line that must parse to a run's options. */
const run = (argv: string[]) => parseCliArgs(argv) as CliOptions;

describe("parseCliArgs", () => {
  it("gives the defaults for an empty command line: run", () => {
    const o = run([]);
    expect(o).toMatchObject({
      mode: "bench",
      list: false,
      quick: false,
      failOnRegression: false,
      thresholdPercent: 10,
    });
    expect(run(["run"])).toEqual(o);
    expect(o.formats).toBeUndefined();
    expect(o.codecs).toBeUndefined();
    expect(o.payloads).toBeUndefined();
    expect(o.out).toBeUndefined();
    expect(o.forks).toBeUndefined();
    expect(o.slowdowns).toEqual([]);
    expect(o).toMatchObject({ runtime: "node26", defaultRuntime: true, pin: false });
  });

  it("accepts comma-separated and repeated lists", () => {
    const o = run(["--codec", "napi,snappyjs", "--codec", "ts", "--payload", "beacon-block"]);
    expect(o.codecs).toEqual(["napi", "snappyjs", "ts"]);
    expect(o.payloads).toEqual(["beacon-block"]);
  });

  it("reads every value flag", () => {
    const o = run([
      "--quick",
      "--op=compress",
      "--out",
      "/tmp/x",
      "--format",
      "json,md",
      "--compare",
      "base.json",
      "--threshold",
      "5",
      "--fail-on-regression",
      "--reference",
      "napi",
      "--clock",
      "cpu",
      "--forks",
      "0",
      "--slow-down",
      "ts=20,napi=5.5",
      "--pin",
    ]);
    expect(o).toMatchObject({
      quick: true,
      ops: ["compress"],
      out: "/tmp/x",
      formats: ["json", "md"],
      compare: "base.json",
      thresholdPercent: 5,
      failOnRegression: true,
      reference: "napi",
      clock: "cpu",
      forks: 0,
      pin: true,
      slowdowns: [
        { codec: "ts", percent: 20 },
        { codec: "napi", percent: 5.5 },
      ],
    });
  });

  it("takes --runtime, the Node LTS lines among them", () => {
    expect(run(["--runtime", "deno"])).toMatchObject({
      runtime: "deno",
      defaultRuntime: false,
    });
    expect(run(["--runtime", "node24"]).runtime).toBe("node24");
    expect(run(["--runtime", "node"]).runtime).toBe("node");
    expect(run(["sweep", "--runtime", "node22"]).runtime).toBe("node22");
    // --forks 0 times in this process: this Node, not the default line.
    expect(run(["--forks", "0"]).runtime).toBe("node");
  });

  it("takes merge's files and render's report as arguments", () => {
    expect(run(["merge", "a.json", "b.json", "c.json", "--out", "o"])).toMatchObject({
      mode: "merge",
      merge: ["a.json", "b.json", "c.json"],
      out: "o",
    });
    expect(run(["render", "r.json", "--format", "svg"])).toMatchObject({
      mode: "render",
      render: "r.json",
      formats: ["svg"],
    });
    expect(run(["list"])).toMatchObject({ list: true, mode: "bench" });
  });

  it("answers -h and --help with the bench's help or the command's", () => {
    for (const argv of [["-h"], ["--help"], ["help"]])
      expect(parseCliArgs(argv)).toEqual({ help: help() });
    expect(parseCliArgs(["sweep", "--help"])).toEqual({ help: help("sweep") });
    expect(parseCliArgs(["help", "soak"])).toEqual({ help: help("soak") });
    for (const name of Object.keys(COMMANDS)) expect(help()).toContain(`  ${name} `);
    expect(help("soak")).toContain("--seconds");
    expect(help("soak")).not.toContain("--forks");
  });

  it("parses bench docs and its flags", () => {
    expect(parseCliArgs(["docs"])).toEqual({ docs: { check: false, stale: false, adopt: false } });
    expect(parseCliArgs(["docs", "--stale"])).toEqual({
      docs: { check: false, stale: true, adopt: false },
    });
    expect(() => parseCliArgs(["docs", "--quick"])).toThrow(
      /unknown flag --quick for `bench docs`/,
    );
  });

  it.each([
    [["--fast"], /unknown flag --fast for `bench run`; known: /],
    [["swep"], /unknown command "swep" \(did you mean "sweep"\?\); known: run, sweep/],
    [["--codec"], /--codec/],
    [["run", "positional"], /unexpected argument "positional" for `bench run`/],
    [["--threshold", "ten"], /--threshold must be a number from 0/],
    [["--threshold=-1"], /--threshold must be a number from 0/],
    [["--fail-on-regression"], /needs --compare/],
    [["--clock", "tsc"], /unknown --clock "tsc"; valid: wall, cpu/],
    [["--payload", ","], /--payload needs a value/],
    [["--forks", "two"], /--forks must be a whole number from 0 to 50/],
    [["--forks", "1.5"], /--forks must be a whole number/],
    [["--slow-down", "ts"], /--slow-down takes <codec>=<percent>/],
    [["--slow-down", "ts=0"], /--slow-down takes <codec>=<percent>/],
    [
      ["--runtime", "jsc"],
      /unknown --runtime "jsc"; valid: node, node22, node24, node26, bun, deno, browser/,
    ],
    [["--runtime", "node18"], /unknown --runtime "node18"/],
    [["--runtime", "bun", "--forks", "0"], /--forks 0 times in this Node process/],
    [["--runtime", "node24", "--forks", "0"], /--forks 0 times in this Node process/],
    [["--runtime", "browser", "--clock", "cpu"], /--clock cpu needs process CPU time/],
    [
      ["sweep", "--runtime", "bun"],
      /unknown --runtime "bun"; valid: node, node22, node24, node26$/,
    ],
    [["soak", "--runtime", "browser"], /unknown --runtime "browser"/],
    [["merge", "a.json"], /bench merge needs <bench.json>/],
    [["render"], /bench render needs <report.json>/],
    [["render", "a.json", "b.json"], /unexpected argument "b.json" for `bench render`/],
    [["merge", "a.json", "b.json", "--quick"], /unknown flag --quick for `bench merge`/],
    [["--data", ""], /--data needs a value/],
    [["soak", "--data", "x"], /unknown flag --data for `bench soak`/],
    [["sweep", "--payload", "beacon-block"], /unknown flag --payload for `bench sweep`/],
    [["sweep", "--compare", "x.json"], /unknown flag --compare for `bench sweep`/],
    [["soak", "--op", "compress"], /unknown flag --op for `bench soak`/],
    [["soak", "--forks", "3"], /unknown flag --forks for `bench soak`/],
    [["soak", "--seconds", "0"], /from 1 to 3600/],
    [["soak", "--seconds", "abc"], /from 1 to 3600/],
    [["soak", "--rounds", "2.5"], /whole number from 1 to 1000/],
    [["--sizes", "4096"], /unknown flag --sizes for `bench run`/],
    [["sweep", "--sizes", "4k"], /--sizes must be a whole number from 1/],
    [["sweep", "--sizes", "0"], /--sizes must be a whole number from 1/],
  ])("rejects %j with a clear message", (argv, message) => {
    expect(() => run(argv)).toThrow(UsageError);
    expect(() => run(argv)).toThrow(message);
  });
});

describe("selectNames", () => {
  it("returns the requested names once each", () => {
    expect(selectNames("codec", ["a", "b", "a"], ["a", "b", "c"])).toEqual(["a", "b"]);
  });

  it("names the unknown ones and lists every valid name", () => {
    expect(() => selectNames("codec", ["a", "nope", "zip"], ["a", "b"])).toThrow(
      'unknown codecs "nope", "zip"; valid: a, b',
    );
  });
});

describe("sweep and soak", () => {
  it("select the mode and keep the filters that apply", () => {
    expect(run(["sweep", "--quick", "--codec", "ts,napi", "--op", "compress"])).toMatchObject({
      mode: "sweep",
      quick: true,
      codecs: ["ts", "napi"],
      ops: ["compress"],
    });
    expect(run(["sweep", "--data", "x"]).data).toEqual(["x"]);
    expect(run(["soak", "--seconds", "7.5", "--rounds", "100"])).toMatchObject({
      mode: "soak",
      soakSeconds: 7.5,
      soakRounds: 100,
    });
    expect(run(["sweep", "--sizes", "6144,3072", "--sizes", "3072"]).sizes).toEqual([3072, 6144]);
  });
});

describe("didYouMean", () => {
  it("finds a name a typo or a case slip away, and nothing for a name far from all", () => {
    expect(didYouMean("--codc", ["--codec", "--clock", "--compare"])).toBe("--codec");
    expect(didYouMean("NAPI", ["napi", "ts"])).toBe("napi");
    expect(didYouMean("beacon-blok", ["beacon-block", "blob-sidecar"])).toBe("beacon-block");
    expect(didYouMean("zip", ["compress", "uncompress"])).toBeUndefined();
    expect(didYouMean("--fast", ["--list", "--quick"])).toBeUndefined();
    expect(didYouMean("x", [])).toBeUndefined();
  });

  it("drops a leading -- as pnpm passes it", () => {
    expect(run(["--", "--quick"]).quick).toBe(true);
    expect(() => run(["--qiuck"])).toThrow(
      /unknown flag --qiuck for `bench run` \(did you mean "--quick"\?\)/,
    );
  });
});

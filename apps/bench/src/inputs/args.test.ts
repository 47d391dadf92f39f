import { describe, expect, it } from "vitest";
import { didYouMean, HELP, parseCliArgs, selectNames, UsageError } from "./args.js";

describe("parseCliArgs", () => {
  it("gives the defaults for an empty command line", () => {
    const o = parseCliArgs([]);
    expect(o).toMatchObject({
      help: false,
      quick: false,
      failOnRegression: false,
      thresholdPercent: 10,
    });
    expect(o.formats).toBeUndefined();
    expect(o.codecs).toBeUndefined();
    expect(o.payloads).toBeUndefined();
    expect(o.out).toBeUndefined();
    expect(o.forks).toBeUndefined();
    expect(o.slowdowns).toEqual([]);
    expect(o).toMatchObject({ runtime: "node26", defaultRuntime: true, pin: false });
  });

  it("accepts comma-separated and repeated lists", () => {
    const o = parseCliArgs([
      "--codec",
      "napi,snappyjs",
      "--codec",
      "ts",
      "--payload",
      "beacon-block",
    ]);
    expect(o.codecs).toEqual(["napi", "snappyjs", "ts"]);
    expect(o.payloads).toEqual(["beacon-block"]);
  });

  it("reads every value flag", () => {
    const o = parseCliArgs([
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
    expect(parseCliArgs(["--runtime", "deno"])).toMatchObject({
      runtime: "deno",
      defaultRuntime: false,
    });
    expect(parseCliArgs(["--runtime", "node24"]).runtime).toBe("node24");
    expect(parseCliArgs(["--runtime", "node"]).runtime).toBe("node");
    expect(parseCliArgs(["--sweep", "--runtime", "node22"]).runtime).toBe("node22");
    // --forks 0 times in this process: this Node, not the default line.
    expect(parseCliArgs(["--forks", "0"]).runtime).toBe("node");
  });

  it("takes --merge's files after the flag", () => {
    expect(parseCliArgs(["--merge", "a.json", "b.json", "c.json", "--out", "o"])).toMatchObject({
      mode: "merge",
      merge: ["a.json", "b.json", "c.json"],
      out: "o",
    });
    expect(parseCliArgs(["--merge", "a.json", "--merge", "b.json"]).merge).toEqual([
      "a.json",
      "b.json",
    ]);
  });

  it("recognises -h and --help", () => {
    expect(parseCliArgs(["-h"]).help).toBe(true);
    expect(HELP).toContain("--compare");
  });

  it.each([
    [["--fast"], /unknown flag --fast; known: /],
    [["--codec"], /--codec/],
    [["positional"], /positional/i],
    [["--threshold", "ten"], /--threshold must be a non-negative number/],
    [["--threshold=-1"], /--threshold must be a non-negative number/],
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
    [
      ["--sweep", "--runtime", "bun"],
      /--sweep runs in Node: --runtime node, node22, node24, node26/,
    ],
    [["--soak", "--runtime", "browser"], /--soak runs in Node/],
    [["--merge", "a.json"], /--merge needs two or more bench.json files/],
    [["--calibrate", "--codec", "ts"], /--codec does not apply to --calibrate/],
    [["--calibrate", "--sweep"], /separate runs/],
    [["--calibrate", "--runtime", "deno"], /--calibrate runs in Node/],
    [["--merge", "a.json", "b.json", "--quick"], /--quick does not apply to --merge/],
    [["a.json"], /unexpected argument "a.json" \(only --merge takes files\)/],
    [["--data", ""], /--data needs a path/],
    [["--soak", "--data", "x"], /--data does not apply to --soak/],
    [["--sweep", "--data", "x", "--data", "y"], /--sweep --data takes one file or folder/],
  ])("rejects %j with a clear message", (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
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

describe("--sweep and --soak", () => {
  it("selects the mode and keeps the filters that apply", () => {
    expect(
      parseCliArgs(["--sweep", "--quick", "--codec", "ts,napi", "--op", "compress"]),
    ).toMatchObject({
      mode: "sweep",
      quick: true,
      codecs: ["ts", "napi"],
      ops: ["compress"],
    });
    expect(parseCliArgs(["--soak", "--soak-seconds", "7.5", "--soak-rounds", "100"])).toMatchObject(
      {
        mode: "soak",
        soakSeconds: 7.5,
        soakRounds: 100,
      },
    );
    expect(parseCliArgs([]).mode).toBe("bench");
    expect(parseCliArgs(["--sweep", "--sizes", "6144,3072", "--sizes", "3072"]).sizes).toEqual([
      3072, 6144,
    ]);
  });

  it("rejects flags that do not apply, naming them", () => {
    const bad: [string[], RegExp][] = [
      [["--sweep", "--soak"], /separate runs/],
      [["--sweep", "--payload", "beacon-block"], /--payload does not apply to --sweep/],
      [["--sweep", "--compare", "x.json"], /--compare does not apply to --sweep/],
      [["--soak", "--op", "compress"], /--op does not apply to --soak/],
      [["--soak", "--forks", "3"], /--forks does not apply to --soak/],
      [["--soak", "--pin"], /--pin does not apply to --soak/],
      [["--soak-seconds", "5"], /--soak-seconds needs --soak/],
      [["--sweep", "--soak-seconds", "5"], /--soak-seconds needs --soak/],
      [["--soak", "--soak-seconds", "0"], /from 1 to 3600/],
      [["--soak", "--soak-seconds", "abc"], /from 1 to 3600/],
      [["--soak", "--soak-rounds", "2.5"], /whole number from 1 to 1000/],
      [["--sweep", "--soak-rounds", "5"], /--soak-rounds needs --soak/],
      [["--sizes", "4096"], /--sizes needs --sweep/],
      [["--sweep", "--sizes", "4k"], /--sizes takes byte counts/],
      [["--sweep", "--sizes", "0"], /--sizes takes byte counts/],
    ];
    for (const [argv, message] of bad) {
      expect(() => parseCliArgs(argv), argv.join(" ")).toThrow(UsageError);
      expect(() => parseCliArgs(argv)).toThrow(message);
    }
  });

  it("documents both in --help", () => {
    for (const flag of ["--sweep", "--sizes", "--soak", "--soak-seconds", "--soak-rounds"])
      expect(HELP).toContain(flag);
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
    expect(parseCliArgs(["--", "--quick"]).quick).toBe(true);
    expect(() => parseCliArgs(["--qiuck"])).toThrow(
      /unknown flag --qiuck \(did you mean "--quick"\?\)/,
    );
  });
});

import { describe, expect, it } from "vitest";
import type { CaseResult } from "../model/report.js";
import {
  type ComparedRun,
  compareCases,
  forksToTest,
  OTHERS,
  regressions,
  setupWarnings,
} from "./compare.js";

/** A case whose forks took `forks` ns each. */
function result(codec: string, forks: readonly number[], bytes = 100): CaseResult {
  const sorted = [...forks].sort((a, b) => a - b);
  return {
    key: `${codec}/p/compress`,
    codec,
    impl: "adapter",
    library: `${codec}@1`,
    payload: "p",
    op: "compress",
    items: 1,
    bytes,
    batch: 1,
    samples: forks.length * 10,
    forks: forks.length,
    forkMedians: [...forks],
    p50: sorted[(sorted.length - 1) >> 1]!,
    p75: 0,
    p99: 0,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    alloc: { heap: 0, external: 0 },
    wallMs: 1,
  };
}

const run = (cases: CaseResult[], over: Partial<ComparedRun> = {}): ComparedRun => ({
  mode: "full",
  reference: "ref",
  timing: { clock: "wall", forks: 9 },
  environment: { date: "2026-01-01T00:00:00.000Z", node: "v20", cpu: "x", cores: 2 },
  cases,
  ...over,
});

/** A run with one case a codec, each with the forks given for it. */
const runOf = (forks: Record<string, readonly number[]>) =>
  run(Object.entries(forks).map(([codec, times]) => result(codec, times)));

// Nine forks of ~100 ns with a realistic spread and one outlying fork.
const noisy = [100, 104, 97, 101, 99, 350, 102, 98, 103];
const shuffled = [101, 98, 103, 99, 102, 97, 100, 104, 320];

describe("compareCases", () => {
  const base = runOf({ same: noisy, slow: noisy, fast: noisy, gone: noisy });
  const current = runOf({
    same: shuffled,
    slow: noisy.map((x) => x * 1.2),
    fast: noisy.map((x) => x * 0.7),
    new: noisy,
  });
  const { entries, info } = compareCases(base, current, 10, "base.json");
  const by = Object.fromEntries(entries.map((e) => [e.codec, e]));

  it("calls a reshuffle with an outlier no significant change", () => {
    expect(by.same).toMatchObject({ significant: false, verdict: "no significant change" });
    expect(by.same!.absolute.ci!.low).toBeLessThan(0);
    expect(by.same!.absolute.ci!.high).toBeGreaterThan(0);
  });

  it("finds a 20 % slowdown and a 30 % speed-up, with the change and its interval", () => {
    expect(by.slow).toMatchObject({ significant: true, verdict: "slower" });
    expect(by.slow!.absolute.change).toBeCloseTo(20, 0);
    expect(by.slow!.absolute.ci!.low).toBeGreaterThan(0);
    expect(by.fast).toMatchObject({ significant: true, verdict: "faster" });
    expect(by.fast!.absolute.change).toBeCloseTo(-30, 0);
  });

  it("says which cases it skipped and why", () => {
    expect(info.skipped).toEqual(
      expect.arrayContaining([
        { key: "new/p/compress", reason: "not in the baseline" },
        { key: "gone/p/compress", reason: "not in this run" },
      ]),
    );
    expect(info.method).toMatch(/Mann–Whitney/);
  });

  it("fails on significant slowdowns beyond the threshold only", () => {
    expect(regressions(entries).map((e) => e.codec)).toEqual(["slow"]);
    const strict = compareCases(base, current, 25, "base.json");
    expect(regressions(strict.entries)).toEqual([]);
    expect(strict.entries.find((e) => e.codec === "slow")).toMatchObject({
      significant: false,
      verdict: "within noise",
    });
  });

  it("does not compare a payload whose bytes changed between the runs", () => {
    const r = compareCases(base, run([result("same", noisy, 101)]), 10, "base.json");
    expect(r.entries).toEqual([]);
    expect(r.info.skipped).toContainEqual({
      key: "same/p/compress",
      reason: "payload bytes differ between the runs",
    });
  });

  it("holds many chance differences to a 5 % false-discovery rate", () => {
    // 40 unchanged cases, one of them 4 % slower, p ≈ 0.04: what chance alone gives one
    // case in 20.
    const same = Array.from({ length: 40 }, (_, i) => result(`c${i}`, noisy));
    const again = same.map((c, i) =>
      i === 0
        ? result(
            "c0",
            noisy.map((x) => x * 1.04),
          )
        : c,
    );
    const r = compareCases(run(same), run(again), 10, "base.json");
    expect(r.entries.find((e) => e.codec === "c0")!.absolute.p).toBeLessThan(0.05);
    expect(r.entries.filter((e) => e.significant)).toEqual([]);
  });

  it("gives the median change over all cases: the machine's shift when most moved alike", () => {
    const cases = Array.from({ length: 9 }, (_, i) => result(`c${i}`, noisy));
    const later = cases.map((c, i) =>
      result(
        c.codec,
        noisy.map((x) => x * (i === 0 ? 1.5 : 1.03)),
      ),
    );
    const r = compareCases(run(cases), run(later), 10, "base.json");
    expect(r.info.medianChangePercent).toBeCloseTo(3, 0);
  });

  it("never calls a difference significant with too few forks to test", () => {
    const r = compareCases(runOf({ a: [100, 100, 100] }), runOf({ a: [200, 200, 200] }), 10, "b");
    expect(r.entries[0]).toMatchObject({ significant: false, verdict: "no significant change" });
    expect(r.entries[0]!.absolute.testable).toBe(false);
    expect(r.info).toMatchObject({ testable: 0, forksToTest: 4 });
  });

  it("needs 4 forks a side at α = 5 % (3 against 3 can give p = 0.1 at best)", () => {
    expect(forksToTest()).toBe(4);
    expect(forksToTest(0.01)).toBe(5);
  });
});

describe("compareCases on ratios to the reference", () => {
  // A whole run 6 % slower (the machine), every codec alike; `ts` 20 % slower on top.
  const later = (xs: readonly number[], factor: number) =>
    xs.map((x, i) => x * factor * (1 + (i % 3) * 0.001));
  const base = runOf({ ref: noisy, ts: noisy, other: noisy, third: noisy });
  const current = runOf({
    ref: later(noisy, 1.06),
    ts: later(noisy, 1.06 * 1.2),
    other: later(noisy, 1.06),
    third: later(noisy, 1.06),
  });
  const { entries, info } = compareCases(base, current, 5, "base.json");
  const by = Object.fromEntries(entries.map((e) => [e.codec, e]));

  it("judges every codec but the reference by its ratio, which cancels the machine's offset", () => {
    expect(by.other!.absolute).toMatchObject({ significant: true, verdict: "slower" });
    expect(by.other).toMatchObject({ judgedBy: "ratio", significant: false });
    expect(by.other!.ratio!.change).toBeCloseTo(0, 0);
    expect(by.ts).toMatchObject({ judgedBy: "ratio", significant: true, verdict: "slower" });
    expect(by.ts!.ratio).toMatchObject({ reference: "ref", base: 1 });
    expect(by.ts!.ratio!.change).toBeCloseTo(20, 0);
    expect(regressions(entries).map((e) => e.codec)).toEqual(["ts"]);
  });

  it("judges the reference's own cases by their ratio to the row's other codecs", () => {
    // Its time moved with the machine's; against the median of the others it did not, and
    // ts's own slowdown does not move a median of three.
    expect(by.ref!.absolute).toMatchObject({ significant: true, verdict: "slower" });
    expect(by.ref).toMatchObject({ judgedBy: "ratio", significant: false });
    expect(by.ref!.ratio).toMatchObject({ reference: OTHERS });
    expect(by.ref!.ratio!.base).toBeCloseTo(1, 1);
    expect(by.ref!.ratio!.change).toBeCloseTo(0, 0);
    expect(info.testable).toBe(4);
    expect(info.method).toMatch(/the row's other codecs/);
  });

  it("finds the reference itself slowing down against the others", () => {
    const refSlower = run(
      current.cases.map((c) => (c.codec === "ref" ? result("ref", later(noisy, 1.06 * 1.3)) : c)),
    );
    const ref = compareCases(base, refSlower, 5, "base.json").entries.find(
      (e) => e.codec === "ref",
    )!;
    expect(ref).toMatchObject({ judgedBy: "ratio", significant: true, verdict: "slower" });
    expect(ref.ratio!.change).toBeCloseTo(30, 0);
  });

  it("judges the reference on its time when its row has no other codec", () => {
    const alone = compareCases(runOf({ ref: noisy }), runOf({ ref: later(noisy, 1.3) }), 5, "b");
    expect(alone.entries[0]).toMatchObject({ judgedBy: "absolute", verdict: "slower" });
    expect(alone.entries[0]!.ratio).toBeUndefined();
  });

  it("falls back to times, with a warning, when the runs have different references", () => {
    const other = compareCases(base, { ...current, reference: "ts" }, 5, "base.json");
    expect(other.entries.every((e) => e.judgedBy === "absolute")).toBe(true);
    expect(other.info.warnings.join()).toMatch(/reference differs/);
  });
});

describe("compareCases on cases with two speeds", () => {
  // snappy@7's raw blob compress, same commit twice: ~10 µs or ~400 µs per fork, 3 of 13
  // forks slow in one run and 11 of 13 in the next (ns per op).
  const fast = [9300, 9900, 8300, 9800, 8000, 12800, 10700, 8600, 11100, 10700];
  const r4 = [...fast, 388500, 394700, 384500];
  const r5 = [10500, 402200, 305000, 397400, 465500, 302000, 451900, 472500, 14600, 460800];
  const r5b = [...r5, 388300, 387900, 386800];
  const compare = (a: number[], b: number[]) =>
    compareCases(runOf({ napi: a }), runOf({ napi: b }), 10, "base.json").entries[0]!;

  it("tests the fast forks and counts the slow ones when the share of slow forks moves", () => {
    expect(compare(r4, r5b)).toMatchObject({
      significant: false,
      verdict: "no significant change",
      twoSpeeds: { baseSlow: 3, baseForks: 13, slow: 11, forks: 13 },
    });
  });

  it("still finds the fast forks slowing down", () => {
    const slower = r4.map((x) => (x < 100_000 ? x * 1.3 : x));
    expect(compare(r4, slower)).toMatchObject({ significant: true, verdict: "slower" });
  });

  it("tests every fork when one run keeps fewer than two fast ones", () => {
    // Every fork now at the slow speed: the speed itself changed.
    const allSlow = r4.map((x) => (x < 100_000 ? x * 40 : x));
    const e = compare(r4, allSlow);
    expect(e.twoSpeeds).toBeUndefined();
    expect(e).toMatchObject({ significant: true, verdict: "slower" });
  });

  it("takes one outlying fork for noise, not a second speed", () => {
    expect(compare(noisy, shuffled).twoSpeeds).toBeUndefined();
  });

  // `--pin` on a loaded VM: the forks alternate CPUs, one 1.6× slower than the other for
  // the whole fork, so every codec's times split in two speeds; the ratios do not.
  const cpus = (xs: readonly number[], factor = 1) =>
    xs.map((x, i) => x * factor * (i % 2 === 0 ? 1.6 : 1) * (1 + (i % 3) * 0.01));
  const seven = [1000, 1010, 990, 1005, 995, 1002, 998];

  it("tests the ratio on every fork when the case and the reference slowed together", () => {
    const base = runOf({ ref: cpus(seven), ts: cpus(seven, 0.4) });
    const slowed = runOf({ ref: cpus(seven), ts: cpus(seven, 0.48) });
    const e = compareCases(base, slowed, 10, "base.json").entries.find((x) => x.codec === "ts")!;
    expect(e.twoSpeeds).toBeDefined();
    expect(e.absolute.testable).toBe(false);
    expect(e).toMatchObject({ judgedBy: "ratio", significant: true, verdict: "slower" });
    expect(e.ratio!.change).toBeCloseTo(20, 0);
  });

  it("leaves out of the ratio test the forks where the case's process alone ran slow", () => {
    // ts's process stuck 3× slower in 2 of 9 forks of the baseline and 6 of the current
    // run: over every fork, its median ratio would have tripled.
    const nine = [...seven, 1003, 997];
    const stuck = (slow: number[]) => nine.map((x, i) => x * 0.4 * (slow.includes(i) ? 3 : 1));
    const base = runOf({ ref: nine, ts: stuck([1, 4]) });
    const same = runOf({ ref: nine, ts: stuck([0, 1, 2, 3, 5, 6]) });
    const e = compareCases(base, same, 10, "base.json").entries.find((x) => x.codec === "ts")!;
    expect(e).toMatchObject({ judgedBy: "ratio", significant: false });
    expect(e.ratio!.base).toBeCloseTo(0.4, 1);
    expect(e.ratio!.current).toBeCloseTo(0.4, 1);
  });
});

describe("setupWarnings", () => {
  it("names every setting that differs between the runs", () => {
    const w = setupWarnings(
      run([], { mode: "quick", timing: { clock: "cpu", forks: 3 } }),
      run([], { environment: { node: "v22", cpu: "y", cores: 4, cpuIdle: "poll" } }),
    );
    expect(w.join("\n")).toMatch(/mode differs: baseline quick, this run full/);
    expect(w.join("\n")).toMatch(/clock differs/);
    expect(w.join("\n")).toMatch(/forks differs: baseline 3, this run 9/);
    expect(w.join("\n")).toMatch(/runtime differs: baseline node 20, this run node 22/);
    expect(w.join("\n")).toMatch(/CPU differs/);
    expect(w.join("\n")).toMatch(/cores differs/);
    expect(w.join("\n")).toMatch(/idle CPUs differs: baseline default, this run poll/);
    expect(setupWarnings(run([]), run([]))).toEqual([]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { discoverAdapters, loadAdapters } from "./adapters.js";
import { adapterTarget, type BenchCase, getOp, type Target } from "./cases.js";
import { runGate } from "./gate.js";
import { estimateRemaining, hasGc, runCase, runCases, type TimingOptions } from "./run.js";
import { syntheticPayloads } from "./synthetic.js";

const TINY: TimingOptions = {
  warmupMs: 5,
  timeMs: 30,
  minSamples: 5,
  batchMs: 0.5,
  batchMaxBytes: 256 * 1024,
  allocationRuns: 3,
  clock: "wall",
  rounds: 2,
};

let reference: Target;
let cases: (op: string) => BenchCase[];
beforeAll(async () => {
  const { loaded } = await loadAdapters(discoverAdapters().filter((e) => e.id === "napi"));
  reference = adapterTarget("napi", loaded[0]!.codec);
  const gate = await runGate(reference, [reference], syntheticPayloads());
  cases = (op) => gate.prepared.map((prepared) => ({ target: reference, prepared, op: getOp(op) }));
});

describe("runCase", () => {
  it("runs under --expose-gc in tests too", () => {
    expect(hasGc()).toBe(true);
  });

  it("returns ordered statistics, a batch within the output cap, and allocation", async () => {
    const c = cases("uncompress").find((x) => x.prepared.payload.name === "synthetic-block")!;
    const r = await runCase(c, TINY);
    expect(r.key).toBe("napi/synthetic-block/uncompress");
    expect(r.samples).toBeGreaterThanOrEqual(1);
    expect(r.min).toBeGreaterThan(0);
    expect(r.min).toBeLessThanOrEqual(r.p50);
    expect(r.p50).toBeLessThanOrEqual(r.p75);
    expect(r.p75).toBeLessThanOrEqual(r.p99);
    expect(r.p99).toBeLessThanOrEqual(r.max);
    expect(r.batch * r.bytes).toBeLessThanOrEqual(TINY.batchMaxBytes);
    // The decoded 96 KiB live in a Buffer backing store: the external figure must see it.
    expect(r.alloc.external).toBeGreaterThanOrEqual(r.bytes);
    expect(r.alloc.external).toBeLessThan(r.bytes * 2);
  });

  it("can time sync ops on process CPU time", async () => {
    const c = cases("compress").find((x) => x.prepared.payload.name === "synthetic-block")!;
    const r = await runCase(c, { ...TINY, clock: "cpu" });
    expect(r.p50).toBeGreaterThan(0);
    expect(r.min).toBeLessThanOrEqual(r.max);
  });

  it("times async ops and reports progress for every case", async () => {
    const list = cases("compress-async").slice(0, 2);
    const seen: number[] = [];
    const results = await runCases(list, TINY, (p) => seen.push(p.index));
    expect(seen).toEqual([1, 2]);
    expect(results.map((r) => r.op)).toEqual(["compress-async", "compress-async"]);
    expect(results.every((r) => r.p50 > 0)).toBe(true);
  });
});

describe("runCases", () => {
  it("times a row's cases in interleaved rounds and returns them in case order", async () => {
    const base = cases("compress")[0]!;
    const other: BenchCase = { ...base, target: { ...base.target, codec: "napi-again" } };
    const seen: string[] = [];
    const results = await runCases([base, other], { ...TINY, rounds: 3 }, (p) =>
      seen.push(p.current.target.codec),
    );
    expect(seen).toEqual(["napi", "napi-again"]);
    expect(results.map((r) => r.codec)).toEqual(["napi", "napi-again"]);
    // Every round contributes at least one sample.
    for (const r of results) expect(r.samples).toBeGreaterThanOrEqual(3);
  });
});

describe("estimateRemaining", () => {
  it("is unknown before the first case and the mean while sizes are equal", () => {
    expect(estimateRemaining([], [1, 2])).toBeUndefined();
    expect(estimateRemaining([{ bytes: 10, ms: 100 }], [10, 10, 10])).toBe(300);
  });

  it("extrapolates by payload size", () => {
    const done = [
      { bytes: 100, ms: 110 },
      { bytes: 1000, ms: 200 },
    ];
    // ms = 100 + 0.1 × bytes
    expect(estimateRemaining(done, [10_000])).toBeCloseTo(1100);
  });
});

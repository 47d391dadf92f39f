import { describe, expect, it } from "vitest";
import { compareReports, maxAbsDelta, regressions } from "./compare.js";
import type { BenchReport } from "./report/json.js";
import type { CaseResult } from "./run.js";

function result(codec: string, payload: string, op: string, p50: number): CaseResult {
  return {
    key: `${codec}/${payload}/${op}`,
    codec,
    impl: "adapter",
    library: `${codec}@1`,
    payload,
    op,
    items: 1,
    bytes: 100,
    batch: 1,
    samples: 10,
    p50,
    p75: p50,
    p99: p50,
    min: p50,
    max: p50,
    avg: p50,
    alloc: { heap: 0, external: 0 },
    wallMs: 1,
  };
}

const report = (cases: CaseResult[]) =>
  ({ cases, environment: { date: "2026-01-01T00:00:00.000Z" } }) as unknown as BenchReport;

describe("compareReports", () => {
  const base = report([
    result("a", "p", "compress", 100),
    result("b", "p", "compress", 100),
    result("c", "p", "compress", 100),
    result("gone", "p", "compress", 100),
  ]);
  const current = report([
    result("a", "p", "compress", 125),
    result("b", "p", "compress", 95),
    result("c", "p", "compress", 50),
    result("new", "p", "compress", 1),
  ]);
  const cmp = compareReports(base, current, 10, "base.json");

  it("computes the p50 change per case and judges it against the threshold", () => {
    const byCodec = Object.fromEntries(cmp.rows.map((r) => [r.codec, r]));
    expect(byCodec.a).toMatchObject({
      baseP50: 100,
      p50: 125,
      deltaPercent: 25,
      verdict: "regression",
    });
    expect(byCodec.b?.deltaPercent).toBeCloseTo(-5);
    expect(byCodec.b?.verdict).toBe("same");
    expect(byCodec.c).toMatchObject({ deltaPercent: -50, verdict: "improvement" });
  });

  it("lists cases present in only one report", () => {
    expect(cmp.onlyInBaseline).toEqual(["gone/p/compress"]);
    expect(cmp.onlyInCurrent).toEqual(["new/p/compress"]);
  });

  it("finds regressions and the largest absolute change", () => {
    expect(regressions(cmp).map((r) => r.codec)).toEqual(["a"]);
    expect(maxAbsDelta(cmp)).toBe(50);
    expect(maxAbsDelta(cmp, (r) => r.codec !== "c")).toBe(25);
  });

  it("does not compare a payload whose bytes changed between the runs", () => {
    const regenerated = report([{ ...result("a", "p", "compress", 500), bytes: 101 }]);
    const c = compareReports(base, regenerated, 10, "base.json");
    expect(c.rows).toEqual([]);
    expect(c.payloadChanged).toEqual(["p"]);
  });

  it("a higher threshold turns the regression into noise", () => {
    expect(regressions(compareReports(base, current, 30, "base.json"))).toEqual([]);
  });
});

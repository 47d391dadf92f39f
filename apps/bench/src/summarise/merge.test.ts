import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BenchReport } from "../model/report.js";
import { renderMergeSvg } from "../render/charts.js";
import { renderMergeMarkdown, renderMergeTerminal } from "../render/merge.js";
import { mergeReports, runLabel } from "./merge.js";

const recorded = JSON.parse(
  readFileSync(new URL("../__fixtures__/report.json", import.meta.url), "utf8"),
) as BenchReport;

/** The recording as if `codec` had run `factor` times slower in every fork, on another runtime. */
function variant(
  codec: string,
  factor: number,
  runtime: { name: string; version: string },
): BenchReport {
  return {
    ...recorded,
    environment: { ...recorded.environment, runtime },
    cases: recorded.cases.map((c) =>
      c.codec === codec
        ? {
            ...c,
            p50: c.p50 * factor,
            forkMedians: c.forkMedians.map((x) => (x === null ? null : x * factor)),
          }
        : c,
    ),
  };
}

describe("mergeReports", () => {
  const bun = variant("hysnappy", 1, { name: "bun", version: "1.4.5" });
  const slowHysnappy = variant("hysnappy", 40, { name: "node24", version: "24.21.0" });
  const merged = mergeReports(
    [recorded, bun, slowHysnappy],
    ["a.json", "b.json", "c.json"],
    "pnpm bench --merge a.json b.json c.json",
  );

  it("labels each run from its environment: runtime, system, CPU", () => {
    expect(runLabel(recorded)).toBe("Node 20.20.2 · Linux x64 · AMD EPYC × 2");
    expect(merged.runs.map((r) => r.label)).toEqual([
      "Node 20.20.2 · Linux x64 · AMD EPYC × 2",
      "Bun 1.4.5 · Linux x64 · AMD EPYC × 2",
      "Node 24.21.0 · Linux x64 · AMD EPYC × 2",
    ]);
    const twice = mergeReports([recorded, recorded], ["x/bench.json", "y/bench.json"], "m");
    expect(twice.runs[1]!.label).toMatch(/\(y\/bench\.json\)$/);
  });

  it("gives every case each run's ratio and rank, and agreement where the order holds", () => {
    expect(merged.cases.length).toBe(recorded.cases.filter((c) => c.impl === "adapter").length);
    const same = merged.cases.filter(
      (c) => c.codec !== "hysnappy" && c.cells[0]?.rank === c.cells[1]?.rank,
    );
    expect(same.length).toBeGreaterThan(0);
    // Runs 1 and 2 hold the same numbers: wherever a case disagrees, run 3 is why.
    for (const c of merged.cases) {
      expect(c.cells[0]).toEqual(c.cells[1]);
      if (!c.agrees) expect(c.swapsWith.length).toBeGreaterThan(0);
    }
  });

  it("finds a codec that is clearly fastest in one run and clearly slowest in another", () => {
    // hysnappy decodes the attestation fastest in the recording; 40× slower it is last.
    const row = merged.cases.filter(
      (c) => c.payload === "single-attestation" && c.op === "uncompress",
    );
    const hy = row.find((c) => c.codec === "hysnappy")!;
    expect(hy.cells[0]!.rank).toBe(1);
    expect(hy.cells[2]!.rank).toBe(row.length);
    expect(hy.agrees).toBe(false);
    expect(hy.swapsWith).toContain("napi");
  });

  it("renders one Markdown, terminal and SVG view with every run", () => {
    const md = renderMergeMarkdown(merged);
    for (const r of merged.runs) expect(md).toContain(r.label);
    expect(md).toMatch(/The runs agree on the order of \d+ of the \d+ cases every run timed/);
    expect(md).toContain("(75 %)");
    expect(md).toMatch(/no: swaps with .*napi/);
    expect(renderMergeTerminal(merged, { colour: false })).toContain("hysnappy");
    const svg = renderMergeSvg(merged);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.match(/rect mark/g)!.length).toBeGreaterThan(merged.cases.length);
    // A cell the runs disagree on, outlined in red.
    expect(svg).toMatch(/swaps with [^"]*"[^>]*stroke="#dc2626"/);
  });
});

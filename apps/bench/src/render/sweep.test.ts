import { describe, expect, it } from "vitest";
import { sweepResults as results, runtime } from "../__fixtures__/sweep.js";
import { SWEEP_SIZES, type SweepReport } from "../model/sweep.js";
import { sweepCrossovers, sweepPoints } from "../summarise/sweep.js";
import { renderSweepMarkdown, renderSweepTerminal } from "./sweep-md.js";
import { renderSweepSvg, spreadLabels } from "./sweep-svg.js";

describe("the sweep's renderers", () => {
  it("renders the answers, the chart and its crossover marks", () => {
    const report = {
      schema: 1,
      command: "pnpm bench --sweep",
      mode: "full",
      timing: { forks: 9, clock: "wall" },
      durationMs: 1,
      environment: { date: "2026-11-30T12:00:00Z", commit: "abc", node: "v20", cpu: "x", cores: 2 },
      gateReference: "libsnappy",
      data: "d",
      sizes: SWEEP_SIZES,
      codecs: [...runtime].map(([id, r]) => ({ id, library: id, runtime: r })),
      points: sweepPoints(results),
      crossover: sweepCrossovers(results, "compress", runtime),
      failures: [],
    } as unknown as SweepReport;
    const md = renderSweepMarkdown(report);
    expect(md).toMatch(
      /- compress, ts vs napi: ts is faster below ~\d+ B \[.+\] \(96 % pointwise\), napi above/,
    );
    const svg = renderSweepSvg(report);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toMatch(/<title>Snappy throughput by message size/);
    for (const id of runtime.keys()) expect(svg).toContain(`>${id}</text>`);
    expect(svg).toContain("solid rule, ts vs napi: equal at ~");
    expect(svg).toContain(">16 KiB</text>");
    expect(svg).toContain("MB/s (log scale)");
    expect(svg).toContain("message size");
    // The terminal shows the answers the Markdown lists.
    const answers = renderSweepTerminal(report).split("\n");
    expect(answers[0]).toMatch(/^compress, ts vs napi: ts is faster below/);
    for (const line of answers) expect(md).toContain(`- ${line}`);
  });
});

describe("spreadLabels", () => {
  it("keeps labels at least a gap apart and in order", () => {
    const ys = spreadLabels([100, 101, 102, 300], 12);
    const sorted = [...ys].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(12 - 1e-9);
    expect(ys[0]!).toBeLessThan(ys[1]!);
    expect(ys[3]).toBe(300);
  });
});

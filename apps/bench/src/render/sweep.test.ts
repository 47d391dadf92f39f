import { describe, expect, it } from "vitest";
import { sweepReport } from "../__fixtures__/sweep.js";
import { renderSweepMarkdown, renderSweepTerminal } from "./sweep-md.js";
import { renderSweepSvg, spreadLabels } from "./sweep-svg.js";

describe("the sweep's renderers", () => {
  it("renders the answers, the chart and its crossover marks", () => {
    const report = sweepReport();
    const md = renderSweepMarkdown(report);
    expect(md).toMatch(
      /- compress, ts vs napi: ts is faster below ~\d+ B \[.+\] \(96 % pointwise\), napi above/,
    );
    const svg = renderSweepSvg(report);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toMatch(/<title>Snappy throughput by message size/);
    for (const c of report.codecs) expect(svg).toContain(`>${c.id}</text>`);
    expect(svg).toContain("Solid grey: ts = napi at ~");
    // auto's thresholds: a rule for each kind inside the sizes, named.
    expect(svg).toContain("auto: compressible → native from 800 B");
    expect(svg).toContain("auto: incompressible → native from 64.0 KiB");
    expect(svg).toContain(">16 KiB</text>");
    expect(svg).toContain("MB/s (log scale)");
    expect(svg).toContain("message size");
    // The terminal shows the answers the Markdown lists.
    const answers = renderSweepTerminal(report).split("\n");
    expect(answers[0]).toMatch(/^compress, ts vs napi: ts is faster below/);
    for (const line of answers) expect(md).toContain(`- ${line}`);
    // At 60 columns the answers wrap, every line within them.
    const narrow = renderSweepTerminal(report, { colour: false, width: 60 }).split("\n");
    expect(narrow.length).toBeGreaterThan(answers.length);
    for (const line of narrow) expect([...line].length).toBeLessThanOrEqual(60);
  });
});

describe("spreadLabels", () => {
  it("centres a crowd on its lines instead of pushing it all below them", () => {
    const ys = spreadLabels([100, 100, 100], 10);
    expect(ys).toEqual([90, 100, 110]);
    expect(spreadLabels([0, 0], 10, 0)).toEqual([0, 10]);
    expect(spreadLabels([50, 50], 10, 0, 50)).toEqual([40, 50]);
  });

  it("keeps labels at least a gap apart and in order", () => {
    const ys = spreadLabels([100, 101, 102, 300], 12);
    const sorted = [...ys].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(12 - 1e-9);
    expect(ys[0]!).toBeLessThan(ys[1]!);
    expect(ys[3]).toBe(300);
  });
});

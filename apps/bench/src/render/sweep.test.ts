import { describe, expect, it } from "vitest";
import { sweepReport } from "../__fixtures__/sweep.js";
import { renderSweepSvg } from "./charts.js";
import { renderSweepMarkdown, renderSweepTerminal } from "./sweep-md.js";

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
    for (const c of report.codecs) expect(svg).toContain(`>${c.id} (${c.runtime})</text>`);
    expect(svg).toContain("Solid grey: ts = napi at ~");
    // auto's thresholds: a rule for each kind inside the sizes, named over the plot, its size
    // in the notes.
    expect(svg).toContain(">auto: compressible</text>");
    expect(svg).toContain(">auto: incompressible</text>");
    expect(svg).toMatch(/native from 800 B on compressible data/);
    expect(svg).toMatch(/from 64.0 KiB on incompressible/);
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

import { describe, expect, it } from "vitest";
import type { Target } from "./outcome.js";
import { emptyStats, missedTargets, record } from "./outcome.js";
import { renderSafetyMarkdown, type SafetyReport, type SafetyRow } from "./report.js";

function row(id: string, target: Target, silent: number): SafetyRow {
  const stats = emptyStats();
  record(stats, 0, Uint8Array.of(1), { outcome: "rejected", ms: 0.5, rssGrowth: 1024 });
  for (let i = 0; i < silent; i++) {
    record(stats, i + 1, Uint8Array.of(0xab, i), { outcome: "silentAccept", ms: 1, rssGrowth: 0 });
  }
  return {
    id,
    target,
    library: `${id}@1.0.0`,
    sets: { random: stats },
    total: stats,
    missed: missedTargets(stats, target),
  };
}

const report: SafetyReport = {
  schemaVersion: 1,
  date: "2026-01-01T00:00:00.000Z",
  durationMs: 61_000,
  n: { crafted: 0, random: 3, mutated: 0 },
  rawN: { crafted: 0, random: 3, mutated: 0 },
  seed: 1,
  environment: {
    node: "v20",
    v8: "11",
    cpu: "cpu",
    cores: 2,
    memoryGiB: 4,
    os: "Linux 6",
    arch: "x64",
  },
  limits: { slowMs: 100, hangMs: 2000, rssLimitBytes: 64 * 2 ** 20, rssCapBytes: 6 * 2 ** 30 },
  exactRssPeaks: true,
  reference: "oracle",
  referenceCheck: { inputs: 3, disagreements: [] },
  mutatedPool: { source: "test", compressor: "x", streams: 1, maxStreamBytes: 1 },
  framedN: { crafted: 0, mutated: 3 },
  rows: [row("good", "adapter", 0), row("leaky", "raw", 2), row("stream", "framed", 1)],
  failed: [],
};

describe("renderSafetyMarkdown", () => {
  it("renders both matrices, marks misses, and lists failing inputs", () => {
    const md = renderSafetyMarkdown(report);
    expect(md.startsWith("## Safety on hostile input\n")).toBe(true);
    expect(md).toContain("### Adapters (`createCodec()`)");
    expect(md).toContain("### Raw libraries (`createRaw()`, no guards)");
    expect(md).toMatch(/\| good \(good@1\.0\.0\) +\| +1 \|.*✓ met \|/);
    expect(md).toMatch(/\| leaky: leaky@1\.0\.0 +\|.*\*\*2\*\*.*✗ missed \|/);
    expect(md).toContain("- leaky (raw), random #1, silentAccept: `ab00`");
    expect(md).toContain("### Framed req/resp implementations");
    expect(md).toMatch(/\| stream: stream@1\.0\.0 +\|.*\*\*1\*\*.*✗ missed \|/);
    expect(md).toContain("- stream (framed), random #1, silentAccept: `ab00`");
    expect(md).toContain("took 1 min 1 s");
  });

  it("nests under a host document's heading", () => {
    const md = renderSafetyMarkdown(report, { omitHeading: true, depth: 3 });
    expect(md).not.toContain("Safety on hostile input");
    expect(md).toContain("#### Adapters");
  });
});

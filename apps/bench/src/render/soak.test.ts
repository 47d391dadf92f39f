import { describe, expect, it } from "vitest";
import { GOSSIP_MIX, MIB, type SoakReport, type SoakRow } from "../model/soak.js";
import { renderSoakMarkdown, renderSoakTerminal } from "./soak.js";

const row = (codec: string, scenario: SoakRow["scenario"], grows: boolean): SoakRow => ({
  codec,
  runtime: "native",
  scenario,
  ops: 1000,
  opsPerSec: 50,
  durationMs: 20_000,
  rssStart: 100 * MIB,
  rssWarm: 110 * MIB,
  rssRise: grows ? 200 * MIB : 0,
  rssPeak: 400 * MIB,
  rssEnd: grows ? 350 * MIB : 110 * MIB,
  rssAfterGc: 100 * MIB,
  slope: grows ? 600 : 0,
  slopeSecondHalf: grows ? 600 : 0,
  gcCount: 3,
  gcP99: 2.5,
  gcMax: 3,
  grows,
});

const report = {
  command: "pnpm bench --soak",
  mode: "full",
  durationMs: 1000,
  environment: {
    date: "2026-11-30T12:00:00Z",
    commit: "abc",
    node: "v20",
    cpu: "x",
    cores: 2,
    memoryGiB: 8,
  },
  gateReference: "libsnappy",
  settings: {
    gossipSeconds: 20,
    blobRounds: 20,
    blobBytes: 50 * MIB,
    blobData: "blocks",
    gossipMix: GOSSIP_MIX,
    sampleMs: 100,
    warmupFraction: 0.2,
    rule: "r",
  },
  rows: [row("napi", "gossip", false), row("leaky", "big-blob", true)],
  failures: [],
} as unknown as SoakReport;

describe("the soak's renderers", () => {
  it("has one Markdown table row per run and names the growing ones", () => {
    const md = renderSoakMarkdown(report);
    expect(md).toContain("| napi ");
    expect(md).toMatch(/\| leaky +\| big-blob .*\| \*\*YES\*\* +\|/);
    expect(md).toContain("RSS keeps growing: **leaky** (big-blob)");
  });

  it("prints the same table on the terminal, then the growing runs", () => {
    const text = renderSoakTerminal(report, { colour: false });
    expect(text).toMatch(/^codec +scenario/);
    expect(text).toMatch(/leaky +big-blob .* YES\*/);
    expect(text.split("\n").at(-1)).toBe("RSS keeps growing: leaky (big-blob)");
    const flat = renderSoakTerminal(
      { ...report, rows: [row("napi", "gossip", false)] },
      {
        colour: false,
      },
    );
    expect(flat.split("\n").at(-1)).toBe("no codec's RSS keeps growing (rule: see soak.md)");
  });
});

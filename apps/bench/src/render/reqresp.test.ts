import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readReport } from "../inputs/reports.js";
import { OVER_CODEC } from "../model/case.js";
import type { BenchReport, CaseResult } from "../model/report.js";
import { renderMarkdown } from "./markdown.js";
import { reqrespAnswer, reqrespTable } from "./reqresp.js";

// The recorded quick run (render/report.test.ts), with framed rows made up around its
// blocks-by-range case: three forks each, and a peak where the op measured one.
const recorded = readReport(fileURLToPath(new URL("../__fixtures__/report.json", import.meta.url)));
const base = recorded.cases.find((c) => c.payload === "blocks-by-range" && c.impl === "adapter")!;
const framed = (codec: string, op: string, forkMedians: number[], peak?: number): CaseResult => ({
  ...base,
  key: `${codec}/${base.payload}/${op}`,
  codec,
  op,
  forkMedians,
  p50: [...forkMedians].sort((a, b) => a - b)[1]!,
  ...(peak !== undefined && {
    peak: { bytes: peak * base.bytes, low: peak * base.bytes, high: peak * base.bytes, forks: 3 },
  }),
});
const ops = [
  ["snappykit", true, "checked"],
  ["lodestar", true, "checked"],
  ["snappy-frames", false, "checked (Rust snap's FrameDecoder)"],
  ["chainsafe-snappy-stream", false, "not checked (a TODO)"],
].flatMap(([id, over, crc]) =>
  ["encode", "read"].map((kind) => ({
    id: `reqresp-${kind}:${id}`,
    description: `${id} 1.0${over ? OVER_CODEC : ""}: ${kind} every chunk; CRC ${crc}`,
  })),
);

function withFramed(snappykitPeak: number): BenchReport {
  return {
    ...recorded,
    ops: [...recorded.ops, ...ops],
    cases: [
      ...recorded.cases,
      framed("ts", "reqresp-encode:snappykit", [300, 310, 290]),
      framed("ts", "reqresp-read:snappykit", [100, 102, 98], snappykitPeak),
      framed("ts", "reqresp-read:lodestar", [300, 310, 290], 1.0),
      framed("napi", "reqresp-read:snappy-frames", [101, 99, 103], 2.0),
      // Fastest and least memory, but it checks no CRC.
      framed("napi", "reqresp-read:chainsafe-snappy-stream", [50, 51, 49], 0.5),
    ],
  };
}

describe("req/resp table and answer", () => {
  it("label patterns by codec, give each read its peak ÷ response and say which skip CRCs", () => {
    const table = reqrespTable(withFramed(1.1));
    const row = (label: string) => table.rows.find((r) => r[1]!.text === label)!;
    expect(table.rows).toHaveLength(4);
    expect(row("snappykit over ts")[3]!.text).not.toBe("—"); // its encode
    expect(row("snappykit over ts")[6]!.text).toMatch(/^1\.10× \[1\.10–1\.10\] \(.*, 3 forks\)$/);
    expect(row("snappy-frames")[6]!.text).toMatch(/^2\.00×/);
    expect(row("chainsafe-snappy-stream")[2]!.text).toBe("not checked");
    expect(row("chainsafe-snappy-stream")[6]!.strong).toBe(true); // least memory
  });

  it("pick, of the CRC-checking reads tied for fastest, the one with the least peak", () => {
    const [first, second, third] = reqrespAnswer(withFramed(1.1));
    expect(first).toMatch(/^\*\*For req\/resp: snappykit over ts\*\* \(snappykit 1\.0\)\. /);
    expect(second).toContain("snappy-frames (");
    expect(second).toMatch(/Slower, the interval excluding 1: lodestar over ts \(3\.\d\d×/);
    expect(third).toBe("Checks no CRC, so left out: chainsafe-snappy-stream.");
    // Memory decides between the tied: with more than snappy-frames' peak, snappy-frames.
    expect(reqrespAnswer(withFramed(2.5))[0]).toMatch(/^\*\*For req\/resp: snappy-frames\*\*/);
  });

  it("print in the Markdown report only when the run has framed rows", () => {
    expect(renderMarkdown(withFramed(1.1))).toContain("## Req/resp: framed implementations");
    expect(renderMarkdown(recorded)).not.toContain("## Req/resp");
  });
});

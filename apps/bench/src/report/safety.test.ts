import { describe, expect, it } from "vitest";
import { renderSafety } from "./safety.js";

describe("renderSafety", () => {
  it("uses a ready Markdown string from the fuzz helper as is", () => {
    expect(renderSafety({ markdown: "| a |\n|---|\n" })).toBe("| a |\n|---|");
  });

  it("draws codec × outcome counts from a list of rows with nested counts", () => {
    const md = renderSafety({
      rows: [
        { codec: "napi", impl: "adapter", outcomes: { rejected: 10, hang: 0 } },
        { codec: "snappyjs", impl: "raw", outcomes: { rejected: 7, silentAccept: 3 } },
      ],
    });
    expect(md).toContain("| codec          | rejected | hang | silentAccept |");
    expect(md).toMatch(/\| napi\s+\|\s+10 \|\s+0 \|\s+— \|/);
    expect(md).toMatch(/\| snappyjs \(raw\) \|\s+7 \|\s+— \|\s+3 \|/);
  });

  it("reads a codec → counts map", () => {
    const md = renderSafety({ matrix: { ts: { rejected: 5, crash: 0 } } });
    expect(md).toMatch(/\| ts\s+\|\s+5 \|\s+0 \|/);
  });

  it("says so when it finds no matrix", () => {
    expect(renderSafety({ version: 1 })).toMatch(/no codec × outcome matrix/);
  });
});

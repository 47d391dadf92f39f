import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSafetySection, renderSafety } from "./safety.js";

describe("safety section", () => {
  it("embeds the fuzzer's Markdown without its own heading", () => {
    const md = renderSafety({ markdown: "## Safety on hostile input\n\n| a |\n|---|\n" }, "f.json");
    expect(md).toBe("From `f.json` (`pnpm fuzz`).\n\n| a |\n|---|");
  });

  it("says so when the file has no matrix", () => {
    expect(renderSafety({ version: 1 }, "f.json")).toMatch(/no rendered safety matrix/);
  });

  it("prefers a local run over the committed one, and is absent without either", () => {
    const root = mkdtempSync(join(tmpdir(), "safety-"));
    expect(loadSafetySection(root)).toBeUndefined();
    mkdirSync(join(root, "apps/fuzz/docs"), { recursive: true });
    writeFileSync(join(root, "apps/fuzz/docs/safety.json"), JSON.stringify({ markdown: "docs" }));
    expect(loadSafetySection(root)).toContain("docs");
    mkdirSync(join(root, "apps/fuzz/results"), { recursive: true });
    writeFileSync(join(root, "apps/fuzz/results/safety.json"), "{ not json");
    expect(loadSafetySection(root)).toMatch(/could not be read/);
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderJson } from "../render/json.js";
import { otherRuntimes, outputDir, readReport, readSafety } from "./reports.js";

// A real `pnpm bench --quick` run on 4 codecs and 3 payloads, recorded (see README).
const FIXTURE = fileURLToPath(new URL("../__fixtures__/report.json", import.meta.url));
const recorded = readReport(FIXTURE);

describe("readReport", () => {
  it("round-trips through renderJson", () => {
    expect(JSON.parse(renderJson(recorded))).toEqual(recorded);
  });

  it("rejects a file that is not a bench report", () => {
    expect(() => readReport(fileURLToPath(new URL("../../package.json", import.meta.url)))).toThrow(
      /is not a snappykit bench report/,
    );
  });

  it("rejects a report of an older schema, saying to rerun the baseline", () => {
    const old = join(mkdtempSync(join(tmpdir(), "report-")), "old.json");
    writeFileSync(old, JSON.stringify({ ...recorded, schema: 1 }));
    expect(() => readReport(old)).toThrow(/schema 1 bench report.*rerun the baseline/);
  });
});

describe("readSafety", () => {
  it("prefers a local fuzz run over the committed one, and is absent without either", () => {
    const root = mkdtempSync(join(tmpdir(), "safety-"));
    expect(readSafety(root)).toBeUndefined();
    mkdirSync(join(root, "apps/fuzz/docs"), { recursive: true });
    writeFileSync(join(root, "apps/fuzz/docs/safety.json"), JSON.stringify({ markdown: "docs" }));
    expect(readSafety(root)).toEqual({ source: "apps/fuzz/docs/safety.json", markdown: "docs" });
    mkdirSync(join(root, "apps/fuzz/results"), { recursive: true });
    writeFileSync(join(root, "apps/fuzz/results/safety.json"), JSON.stringify({ version: 1 }));
    expect(readSafety(root)).toEqual({ source: "apps/fuzz/results/safety.json" });
    writeFileSync(join(root, "apps/fuzz/results/safety.json"), "{ not json");
    expect(readSafety(root)?.error).toMatch(/JSON/);
  });
});

describe("where reports go", () => {
  it("replaces the full report only after a complete run, each runtime in its own folder", () => {
    expect(outputDir(undefined, true)).toMatch(/apps\/bench\/results$/);
    expect(outputDir(undefined, false)).toMatch(/apps\/bench\/results\/partial$/);
    expect(outputDir(undefined, true, "node26")).toMatch(/apps\/bench\/results$/);
    expect(outputDir(undefined, true, "node")).toMatch(/apps\/bench\/results\/node$/);
    expect(outputDir(undefined, false, "node24")).toMatch(/results\/partial\/node24$/);
    expect(outputDir(undefined, true, "bun")).toMatch(/apps\/bench\/results\/bun$/);
    expect(outputDir(undefined, false, "deno")).toMatch(/results\/partial\/deno$/);
    expect(outputDir("rel/dir", true, "bun")).toMatch(/^\/.*rel\/dir$/);
  });

  it("reads other runtimes' reports only in the default layout", () => {
    const dir = mkdtempSync(join(tmpdir(), "out-"));
    mkdirSync(join(dir, "bun"));
    writeFileSync(join(dir, "bun", "bench.json"), renderJson(recorded));
    expect(otherRuntimes("node", dir, () => {})).toEqual([]);
  });
});

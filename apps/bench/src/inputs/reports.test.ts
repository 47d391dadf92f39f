import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderJson } from "../render/json.js";
import {
  keptNote,
  onlyCodecs,
  otherRuntimes,
  outputDir,
  readReport,
  readSafety,
  realignTables,
} from "./reports.js";

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

describe("a filtered run's safety section", () => {
  // The fuzzer's layout: tables padded to all its codecs, text between them.
  const markdown = [
    "Run 2026-11-30 on X.",
    "",
    "| adapter                      | calls |",
    "| ---------------------------- | ----: |",
    "| napi (snappy@7.4.3)          |     1 |",
    "| napi-external (snappy@7.4.3) |    12 |",
    "| ts (@snappykit/ts@0.1.0)     |     1 |",
    "",
    "| library (raw)            | calls |",
    "| ------------------------ | ----: |",
    "| napi: snappy@7.4.3       |     1 |",
    "| snappyjs: snappyjs@0.7.0 |     1 |",
    "",
    "| codec    | set     |",
    "| -------- | ------- |",
    "| ts (raw) | random  |",
    "| napi     | crafted |",
    "",
    "- snappyjs (raw), crafted #9, hang: `01fc`",
    "- napi (raw), random #16, ≥ 64 MiB: `8a83`",
  ].join("\n");

  it("keeps only the rows and examples of the run's codecs, and every header", () => {
    const kept = onlyCodecs(markdown, ["napi"]);
    expect(kept).toContain("| napi (snappy@7.4.3) |     1 |");
    expect(kept).toContain("| napi: snappy@7.4.3 |     1 |");
    expect(kept).toContain("| napi  | crafted |");
    expect(kept).toContain("- napi (raw), random #16");
    for (const header of ["| adapter ", "| library (raw) ", "| codec "])
      expect(kept).toContain(header);
    for (const gone of ["napi-external", "ts (", "snappyjs"]) expect(kept).not.toContain(gone);
  });

  it("pads each kept table again to its own rows, as biome formats it", () => {
    expect(onlyCodecs(markdown, ["napi"]).split("\n").slice(2, 5)).toEqual([
      "| adapter             | calls |",
      "| ------------------- | ----: |",
      "| napi (snappy@7.4.3) |     1 |",
    ]);
    // A bar inside a cell stays escaped; lines that are no table stay as they were.
    expect(realignTables("text\n| a | b |\n| --- | --: |\n| x \\| y | 1 |\n\nmore")).toBe(
      "text\n| a      |   b |\n| ------ | --: |\n| x \\| y |   1 |\n\nmore",
    );
  });

  it("names the fuzzing run's machine and the codecs it kept", () => {
    const root = mkdtempSync(join(tmpdir(), "safety-"));
    mkdirSync(join(root, "apps/fuzz/docs"), { recursive: true });
    const file = {
      date: "2026-11-30T01:27:40.128Z",
      environment: { cpu: "Some CPU", cores: 2, node: "v20.20.2" },
      markdown,
    };
    writeFileSync(join(root, "apps/fuzz/docs/safety.json"), JSON.stringify(file));
    const safety = readSafety(root, ["ts"])!;
    expect(safety.machine).toBe("Some CPU × 2, Node 20.20.2, 2026-11-30");
    expect(safety.codecs).toEqual(["ts"]);
    expect(safety.markdown).not.toContain("napi");
    expect(readSafety(root)!.markdown).toBe(markdown);
  });
});

describe("where reports go", () => {
  it("says the full report was left as it was only when there is one", () => {
    const dir = mkdtempSync(join(tmpdir(), "full-"));
    expect(keptNote("bench", "node26", dir)).toMatch(/there is no full bench report in .* yet/);
    writeFileSync(join(dir, "bench.json"), "{}");
    expect(keptNote("bench", "node26", dir)).toMatch(
      /the full report .*bench\.json is left as it was/,
    );
  });

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

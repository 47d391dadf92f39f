import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSweepReport, SWEEP_SCHEMA } from "./sweep.js";

describe("readSweepReport", () => {
  const file = (content: string) => {
    const path = join(mkdtempSync(join(tmpdir(), "sweep-")), "sweep.json");
    writeFileSync(path, content);
    return path;
  };

  it("reads a sweep of this schema", () => {
    const sweep = { schema: SWEEP_SCHEMA, series: [], points: [] };
    expect(readSweepReport(file(JSON.stringify(sweep)))).toEqual(sweep);
  });

  it("names the file that is not one", () => {
    const bench = file(JSON.stringify({ schema: 2, cases: [] }));
    expect(() => readSweepReport(bench)).toThrow(`${bench} is not a schema 1 sweep report`);
    expect(() => readSweepReport(file("{"))).toThrow(/cannot read sweep .*sweep.json/);
  });
});

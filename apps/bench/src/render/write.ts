// Writing a run's report files: each file format of the formats table that was asked for
// and renders this kind of report, into the run's folder (inputs/reports.ts says which).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Outcome } from "../model/outcome.js";
import { type Formats, render } from "./formats.js";

/** Write `files` (name, text) into `dir`; returns their paths. */
export function writeFiles(dir: string, files: readonly (readonly [string, string])[]): string[] {
  mkdirSync(dir, { recursive: true });
  return files.map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
}

/**
 * Render `outcome` in each of the file formats `names` (ids in `formats`) into `dir`, as
 * `<kind>.<extension>` (bench.md, sweep.svg); a format with no renderer for this kind of
 * report is left out. Returns the paths written.
 */
export function writeReport(
  outcome: Outcome,
  formats: Formats,
  names: readonly string[],
  dir: string,
): string[] {
  return writeFiles(
    dir,
    names.flatMap((name) => {
      const format = formats[name]!;
      const text = render(format, outcome, { colour: false });
      return text === undefined ? [] : [[`${outcome.kind}.${format.extension}`, text] as const];
    }),
  );
}

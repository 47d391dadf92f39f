// `pnpm bench merge a.json b.json … [--out dir]`: earlier payload runs side by side, from
// several machines or runtimes, as one report. Nothing is timed: the files are read and
// checked first (a bad one exits 2), then merged (summarise/merge.ts).
import { relative, resolve } from "node:path";
import { UsageError } from "../inputs/args.js";
import { readReport } from "../inputs/reports.js";
import { mergeReports } from "../summarise/merge.js";
import type { ReadingMode } from "./mode.js";

export const mergeMode: ReadingMode = {
  read({ opts, command }) {
    const files = opts.merge ?? [];
    const reports = files.map((file) => {
      try {
        return readReport(resolve(file));
      } catch (error) {
        throw new UsageError(`merge: ${(error as Error).message}`);
      }
    });
    const shown = files.map((f) => {
      const rel = relative(process.cwd(), resolve(f));
      return rel.startsWith("..") ? resolve(f) : rel;
    });
    return { kind: "merge", report: mergeReports(reports, shown, command) };
  },
};

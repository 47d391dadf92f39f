// `pnpm bench render <report.json>`: a saved bench, sweep or soak report drawn again by
// today's renderers, its files (json, md, svg) written beside it under its own name, so a
// changed chart or table reaches the committed reports (apps/bench/docs) without timing
// anything again. The report's figures are not touched.
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { provenance, shippedThresholds } from "@snappykit/auto";
import { UsageError } from "../inputs/args.js";
import { readReport } from "../inputs/reports.js";
import type { Outcome } from "../model/outcome.js";
import type { SoakReport } from "../model/soak.js";
import type { SweepReport } from "../model/sweep.js";
import type { ReadingMode } from "./mode.js";

/**
 * The report in `file`, by its shape. A sweep made before sweeps recorded auto's thresholds
 * gets the shipped ones when they were derived from this very sweep (same commit), so the
 * chart can draw them; any other sweep is left without.
 * @throws UsageError for a file that is none of the three.
 */
export function readAnyReport(file: string): Outcome {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`render: cannot read ${file}: ${(error as Error).message}`);
  }
  if (Array.isArray(parsed.points) && Array.isArray(parsed.sizes)) {
    const sweep = parsed as unknown as SweepReport;
    const fromThisSweep = provenance.commit === sweep.environment.commit;
    return {
      kind: "sweep",
      report:
        sweep.auto || !fromThisSweep
          ? sweep
          : { ...sweep, auto: { thresholds: shippedThresholds, source: "shipped", provenance } },
    };
  }
  if (Array.isArray(parsed.rows) && typeof parsed.settings === "object") {
    return { kind: "soak", report: parsed as unknown as SoakReport };
  }
  try {
    return { kind: "bench", report: readReport(file) };
  } catch (error) {
    throw new UsageError(`render: ${(error as Error).message} (nor a sweep or soak report)`);
  }
}

export const renderMode: ReadingMode = {
  read: ({ opts }) => readAnyReport(resolve(opts.render!)),
  target: ({ opts }) => ({
    dir: opts.out ? resolve(opts.out) : dirname(resolve(opts.render!)),
    stem: basename(opts.render!).replace(/\.json$/, ""),
  }),
};

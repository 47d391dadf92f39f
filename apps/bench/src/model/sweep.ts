// sweep.json: the size sweep's report (`bench sweep`, modes/sweep.ts). Its figures are the shape
// @snappykit/workspace/sweep gives every reader (auto's thresholds script among them); the
// bench adds its run header, as in bench.json.
import type { AutoDescription } from "@snappykit/auto";
import type { SweepFigures } from "@snappykit/workspace/sweep";
import type { BenchReport } from "./report.js";

export {
  type CrossoverInterval,
  type CrossoverKind,
  DATA_SERIES,
  SWEEP_SCHEMA,
  SWEEP_SERIES,
  type SweepCrossover,
  type SweepFigures,
  type SweepPoint,
  type SweepSeries,
  type SweepSeriesName,
} from "@snappykit/workspace/sweep";

/** Message sizes swept: 64 B to 4 MiB in ×4 steps. */
export const SWEEP_SIZES: readonly number[] = Array.from({ length: 9 }, (_, i) => 64 * 4 ** i);

/** Ops the sweep times. */
export const SWEEP_OPS = ["compress", "uncompress"] as const;

/** sweep.json: the main report's run header, then the sweep's own figures. */
export interface SweepReport
  extends SweepFigures,
    Pick<
      BenchReport,
      "command" | "mode" | "timing" | "durationMs" | "environment" | "gateReference" | "failures"
    > {
  /**
   * The thresholds @snappykit/auto routed by in the run, as its `describe()` gives them (the
   * chart draws them); sweeps before it: none.
   */
  readonly auto?: Pick<AutoDescription, "thresholds" | "source" | "provenance">;
}

/** A sweep case's payload name: "sweep-blocks-4096" (one stream), "sweep-4096" (both added). */
export const sweepPayloadName = (size: number, series?: string) =>
  series === undefined ? `sweep-${size}` : `sweep-${series}-${size}`;

/** The stream and size a sweep payload name stands for (no stream: both added up). */
export function parseSweepPayload(name: string): { series?: string; size: number } {
  const m = /^sweep-(?:([a-z]+)-)?(\d+)$/.exec(name)!;
  return { ...(m[1] !== undefined && { series: m[1] }), size: Number(m[2]) };
}

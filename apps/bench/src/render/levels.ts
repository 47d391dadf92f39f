// The level every printed interval really has. An order-statistic interval's coverage is
// discrete and depends on the forks: [2nd, 8th] of 9 forks covers 96 %, [min, max] of 3 forks
// (`--quick`) only 75 %. So no renderer writes "95 %": each states the levels its intervals
// reach, from the report.
import type { Interval } from "../model/estimate.js";
import type { BenchReport } from "../model/report.js";

/** Coverage as a whole percent, never rounded up: 0.961 → 96. */
const percent = (level: number) => Math.floor(level * 100 + 1e-9);

/**
 * The levels of `intervals` as text: "96 %", or "75–96 %" when they differ; "no" when there
 * is none (a single fork).
 */
export function levelText(intervals: readonly (Pick<Interval, "level"> | undefined)[]): string {
  const levels = intervals.filter((i) => i !== undefined).map((i) => percent(i.level));
  if (levels.length === 0) return "no";
  const low = Math.min(...levels);
  const high = Math.max(...levels);
  return low === high ? `${low} %` : `${low}–${high} %`;
}

/** The levels of each kind of interval in a payload run's report. */
export function reportLevels(report: BenchReport): {
  /** Each case's median over forks (speed, spread, runtimes tables). */
  readonly cases: string;
  /** Each codec's ratio to the reference (relative table). */
  readonly ratios: string;
  /** Each adapter against its library (overhead table). */
  readonly overhead: string;
  /** `--compare`'s change intervals (Moses). */
  readonly changes: string;
} {
  return {
    cases: levelText(report.cases.map((c) => c.ci)),
    ratios: levelText(
      report.relative.flatMap((r) =>
        r.cells.filter((c) => c.codec !== r.reference).map((c) => c.ci),
      ),
    ),
    overhead: levelText(report.overhead.map((o) => o.ci)),
    changes: levelText((report.comparison ?? []).flatMap((e) => [e.absolute.ci, e.ratio?.ci])),
  };
}

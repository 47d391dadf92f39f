// The timing step the payload run and the sweep share: the settings the command line asks
// for, then the cases planned into rows (plan.ts), timed in forks (schedule.ts) and each
// case's forks summarised (summarise/results.ts).
import type { CodecTarget } from "@snappykit/workspace/targets";
import type { BenchCase, PreparedInputs } from "../model/case.js";
import type { CliOptions } from "../model/options.js";
import type { CaseResult, ForkFailure } from "../model/report.js";
import { FULL_TIMING, QUICK_TIMING, type TimingOptions } from "../model/timing.js";
import { summarise } from "../summarise/results.js";
import type { OpenRuntime } from "./launch.js";
import { planCases } from "./plan.js";
import type { Io } from "./progress.js";
import { timeCases } from "./schedule.js";

/**
 * Full or `--quick` settings with `--clock` and `--forks`. `--forks N` means exactly N
 * forks; without `adaptive`, the default fork count and no extras.
 */
export function timingFor(opts: CliOptions, adaptive: boolean): TimingOptions {
  const base = opts.quick ? QUICK_TIMING : FULL_TIMING;
  return {
    ...base,
    clock: opts.clock,
    ...(opts.forks !== undefined && { forks: opts.forks }),
    ...((opts.forks !== undefined || !adaptive) && { extraForks: 0 }),
  };
}

/** The cases, timed and summarised, in case-list order. */
export interface TimedCases {
  readonly cases: CaseResult[];
  readonly failures: ForkFailure[];
  /** What idle CPUs did while forks were timed (idle.ts). */
  readonly cpuIdle: string;
  /** Where the forks' processes ran (affinity.ts). */
  readonly affinity: string;
}

/**
 * Time `cases` on the gate's prepared inputs in `runtime`'s forks; with a `reference`,
 * rows whose ratios to it stay wide get extra forks (as `timing` allows).
 */
export async function timeAndSummarise(
  cases: readonly BenchCase[],
  gate: PreparedInputs,
  selected: readonly CodecTarget[],
  opts: Pick<CliOptions, "slowdowns" | "pin">,
  timing: TimingOptions,
  run: { readonly io: Io; readonly log: (line: string) => void },
  where: { readonly runtime: OpenRuntime; readonly reference?: string },
): Promise<TimedCases> {
  const { rows, plan, identities } = planCases(cases, gate.prepared, selected, opts.slowdowns);
  const measured = await timeCases(rows, plan, timing, run.io, run.log, {
    ...(where.runtime.browser && { browser: where.runtime.browser }),
    runtime: where.runtime,
    pin: opts.pin,
    ...(where.reference !== undefined && { reference: where.reference }),
  });
  return {
    cases: measured.measurements.map((m, i) => summarise(identities[i]!, m)),
    failures: measured.failures,
    cpuIdle: measured.cpuIdle,
    affinity: measured.affinity,
  };
}

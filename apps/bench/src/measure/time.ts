// The timing step the payload run and the sweep share: the settings the command line asks
// for, then the cases planned into rows (plan.ts), timed in forks of the workers chosen here
// in the order schedule.ts decides, and each case's forks summarised (summarise/results.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CodecTarget } from "@snappykit/workspace/targets";
import type { BenchCase, PreparedInputs, TargetSpec } from "../model/case.js";
import type { CliOptions } from "../model/options.js";
import type { CaseResult, ForkFailure } from "../model/report.js";
import { FULL_TIMING, QUICK_TIMING, type TimingOptions } from "../model/timing.js";
import { summarise, wideRows } from "../summarise/results.js";
import { forkAffinity } from "./affinity.js";
import { BrowserWorker } from "./browser.js";
import { ChildWorker, nativeCommand, writeInputs } from "./fork.js";
import { holdPollingIdle } from "./idle.js";
import type { OpenRuntime } from "./launch.js";
import { LocalWorker } from "./local.js";
import { planCases } from "./plan.js";
import { clearProgress, type Io, progressPrinter } from "./progress.js";
import { type ForkCommand, NODE_RUNTIME, processRuntime } from "./runtime.js";
import { runForks, type StartWorker } from "./schedule.js";

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

/** A child that does not answer one timing request in this long is killed. */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * Time `cases` on the gate's prepared inputs in `runtime`'s forks (child processes, Chromium
 * pages, or this process with `--forks 0`), with live progress on stderr; lost forks are
 * logged. With a `reference`, rows whose ratios to it stay wide get extra forks (as
 * `timing` allows).
 */
export async function timeAndSummarise(
  cases: readonly BenchCase[],
  gate: PreparedInputs,
  selected: readonly CodecTarget[],
  opts: Pick<CliOptions, "slowdowns" | "pin">,
  timing: TimingOptions,
  { io, log }: { readonly io: Io; readonly log: (line: string) => void },
  { runtime, reference }: { readonly runtime: OpenRuntime; readonly reference?: string },
): Promise<TimedCases> {
  const { rows, plan, identities } = planCases(cases, gate.prepared, selected, opts.slowdowns);
  const { browser } = runtime;
  // A native program reads its inputs from the folder even when nothing else forks.
  const inputsDir =
    timing.forks === 0 && !plan.some((c) => c.spec.native || c.spec.runtime)
      ? undefined
      : mkdtempSync(join(tmpdir(), "snappykit-bench-"));
  let measured: Awaited<ReturnType<typeof runForks>>;
  const idle = holdPollingIdle();
  // Pinning applies to fork processes only: not to a browser's pages or --forks 0.
  const affinity = forkAffinity(!browser && timing.forks > 0 && opts.pin);
  try {
    if (inputsDir) writeInputs(inputsDir, rows);
    // Native programs run as processes of their own whatever the runtime (no JavaScript),
    // and a codec of another runtime in that runtime's (inputs/elsewhere.ts); the rest in
    // the run's runtime: its processes, Chromium pages, or this process with `--forks 0`.
    const runtimes = new Map<string, ForkCommand>();
    const commandOf = (spec: TargetSpec): ForkCommand | undefined => {
      if (spec.native) return nativeCommand(spec, inputsDir!, timing);
      if (spec.runtime) {
        if (!runtimes.has(spec.runtime)) {
          runtimes.set(spec.runtime, processRuntime(spec.runtime).command!);
        }
        return runtimes.get(spec.runtime);
      }
      if (browser || timing.forks === 0) return undefined;
      return runtime.command ?? NODE_RUNTIME.command!;
    };
    const start: StartWorker = (spec, fork) => {
      const command = commandOf(spec);
      if (command) {
        const pinned = affinity.command(command, fork);
        return ChildWorker.start(spec, inputsDir, timing, REQUEST_TIMEOUT_MS, pinned);
      }
      return browser
        ? BrowserWorker.start(spec, browser, rows, timing, REQUEST_TIMEOUT_MS)
        : LocalWorker.start(spec, rows, timing);
    };
    measured = await runForks(
      plan,
      rows,
      Math.max(1, timing.forks),
      start,
      progressPrinter(io.stderr),
      reference !== undefined && timing.forks > 0 && timing.extraForks > 0
        ? {
            extraForks: timing.extraForks,
            deadline: performance.now() + timing.budgetMs,
            wideRows: (ms) => wideRows(ms, reference, timing.targetWidthPercent),
          }
        : undefined,
    );
  } finally {
    idle.release();
    if (inputsDir) rmSync(inputsDir, { recursive: true, force: true });
  }
  clearProgress(io.stderr);
  for (const f of measured.failures) {
    log(`fork ${f.fork + 1} lost ${f.codec}${f.impl === "raw" ? " (raw)" : ""}: ${f.reason}`);
  }
  return {
    cases: measured.measurements.map((m, i) => summarise(identities[i]!, m)),
    failures: measured.failures,
    cpuIdle: idle.note,
    affinity: affinity.note,
  };
}

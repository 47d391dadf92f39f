// Who runs when. Fork by fork, every target gets a fresh process; within a fork, rows
// (payload × op) are timed one after another, and the targets of a row take short turns
// (A B C A B C ..., a few milliseconds each), so a slow spell of the machine lands on every
// codec of the row rather than on whichever case it happened to hit. The order of targets
// rotates from fork to fork and turn to turn, so no codec always goes first. Each fork of a
// case yields one number, its median batch time: the unit the statistics work on
// (summarise/stats.ts).
// `timeCases` is the step's entry: it picks the workers (child processes, Chromium pages or
// this process) and prints progress; `runForks` decides the order.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import type { RowInputs, TargetSpec } from "../model/case.js";
import type { ForkFailure } from "../model/report.js";
import type { CaseMeasurement, PlannedCase, Progress, TimingOptions } from "../model/timing.js";
import { wideRows } from "../summarise/results.js";
import { medianOf } from "../summarise/stats.js";
import { forkAffinity } from "./affinity.js";
import { BrowserWorker } from "./browser.js";
import { ChildWorker, nativeCommand, writeInputs } from "./fork.js";
import { holdPollingIdle } from "./idle.js";
import { type CaseWorker, LocalWorker } from "./local.js";
import { clearProgress, type Io, progressPrinter } from "./progress.js";
import { type ForkCommand, type ForkRuntime, NODE_RUNTIME, processRuntime } from "./runtime.js";

/** A row as progress names it: "{codec}/payload/op". */
export interface RowInfo {
  readonly label: string;
}

/** Starts the worker for a target in fork `fork` (a child process, or this process). */
export type StartWorker = (spec: TargetSpec, fork: number) => Promise<CaseWorker>;

const specKey = (s: TargetSpec) => `${s.codec}${s.impl === "raw" ? ":raw" : ""}`;

function rotate<T>(xs: readonly T[], by: number): T[] {
  if (xs.length === 0) return [];
  const k = by % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

/**
 * More forks for the rows whose figures are still too uncertain (tachometer's
 * auto-sampling): after the base forks, one extra fork at a time for the rows `wideRows`
 * names, until none is named, `extraForks` have run, or the clock passes `deadline`.
 */
export interface AdaptiveForks {
  readonly extraForks: number;
  /** performance.now() after which no extra fork starts. */
  readonly deadline: number;
  /** The rows that still need forks, from everything measured so far. */
  readonly wideRows: (measurements: readonly CaseMeasurement[]) => number[];
}

/**
 * Run every fork. `forks` processes per target (at least one: `--forks 0` passes 1 with
 * an in-process `start`), then the adaptive extra forks if asked. A target that fails in a
 * fork is reported and skipped for the rest of that fork; the run goes on.
 */
export async function runForks(
  plan: readonly PlannedCase[],
  rows: readonly RowInfo[],
  forks: number,
  start: StartWorker,
  onProgress?: (p: Progress) => void,
  adaptive?: AdaptiveForks,
): Promise<{ measurements: CaseMeasurement[]; failures: ForkFailure[] }> {
  const maxForks = forks + (adaptive?.extraForks ?? 0);
  const measurements = new Map<string, CaseMeasurement>();
  const key = (c: PlannedCase) => `${specKey(c.spec)}#${c.row}`;
  for (const c of plan) {
    measurements.set(key(c), {
      ...c,
      forkMedians: Array.from({ length: maxForks }, () => Number.NaN),
      samples: [],
      batch: 0,
      alloc: { heap: Number.NaN, external: Number.NaN },
      peaks: [],
      wallMs: 0,
    });
  }
  const failures: ForkFailure[] = [];
  const specs = [...new Map(plan.map((c) => [specKey(c.spec), c.spec])).values()];
  const allRows = [...new Set(plan.map((c) => c.row))].sort((a, b) => a - b);
  let total = plan.length * forks;
  const started = performance.now();
  let index = 0;
  // Every case gets the same time budget per fork, so the case count predicts the rest
  // better than payload sizes do (only the few slowest ops outrun their budget).
  const eta = () =>
    index > 1 ? ((performance.now() - started) / (index - 1)) * (total - index + 1) : undefined;

  /** One fork: every target (or those in `only`) replays its whole sequence of rows. */
  const runFork = async (fork: number, only?: ReadonlySet<string>) => {
    const alive = new Map<string, CaseWorker>();
    const fail = (spec: TargetSpec, reason: string) => {
      failures.push({ codec: spec.codec, impl: spec.impl, fork, reason });
      const w = alive.get(specKey(spec));
      alive.delete(specKey(spec));
      return w?.close().catch(() => {});
    };
    // Start every target of the fork before timing any: loading is not what we measure.
    const order = rotate(
      specs.filter((s) => only === undefined || only.has(specKey(s))),
      fork,
    );
    await Promise.all(
      order.map(async (spec) => {
        try {
          alive.set(specKey(spec), await start(spec, fork));
        } catch (error) {
          failures.push({
            codec: spec.codec,
            impl: spec.impl,
            fork,
            reason: (error as Error).message,
          });
        }
      }),
    );
    for (const row of allRows) {
      const cases = order
        .filter((s) => plan.some((c) => c.row === row && specKey(c.spec) === specKey(s)))
        .map((spec) => measurements.get(key({ spec, row }))!);
      if (cases.length === 0) continue;
      // The cases warmed up and still sampling, then each case's batches once it has them.
      const sampling = new Map<CaseMeasurement, CaseWorker>();
      const perFork = new Map<CaseMeasurement, number[]>();
      for (const m of cases) {
        index++;
        onProgress?.({
          fork,
          forks,
          extra: fork >= forks,
          index,
          total,
          label: rows[row]!.label.replace("{codec}", specKey(m.spec)),
          elapsedMs: performance.now() - started,
          etaMs: eta(),
        });
        const w = alive.get(specKey(m.spec));
        if (!w) continue;
        const t0 = performance.now();
        try {
          const batch = await w.warm(row);
          if (m.batch === 0) m.batch = batch;
          sampling.set(m, w);
        } catch (error) {
          await fail(m.spec, (error as Error).message);
        }
        m.wallMs += performance.now() - t0;
      }
      // Round-robin turns until every case has its batches: each fork decides that for its
      // own cases (minSamples and timeMs, measure/run.ts).
      for (let turn = 0; sampling.size > 0; turn++) {
        for (const [m, w] of rotate([...sampling], turn)) {
          const t0 = performance.now();
          try {
            const got = await w.sample(row);
            if (got.done) {
              sampling.delete(m);
              perFork.set(m, got.samples);
            }
          } catch (error) {
            sampling.delete(m);
            await fail(m.spec, (error as Error).message);
          }
          m.wallMs += performance.now() - t0;
        }
      }
      for (const [m, samples] of perFork) {
        if (samples.length === 0) continue;
        m.forkMedians[fork] = medianOf(samples);
        for (const ns of samples) m.samples.push(ns);
        // Allocation in the first fork; a peak, where the op has one, in each of the first
        // PEAK_FORKS (fresh processes all), the median of which is the figure.
        const wantsPeak =
          Number.isFinite(m.alloc.peak ?? Number.NaN) && m.peaks.length < PEAK_FORKS;
        if (Number.isNaN(m.alloc.heap) || wantsPeak) {
          const w = alive.get(specKey(m.spec));
          try {
            const alloc = w && (await w.allocation(row));
            if (alloc && Number.isNaN(m.alloc.heap)) m.alloc = alloc;
            if (alloc?.peak !== undefined && Number.isFinite(alloc.peak)) m.peaks.push(alloc.peak);
          } catch (error) {
            await fail(m.spec, (error as Error).message);
          }
        }
      }
    }
    await Promise.all([...alive.values()].map((w) => w.close().catch(() => {})));
  };

  for (let fork = 0; fork < forks; fork++) await runFork(fork);
  let ran = forks;
  while (adaptive && ran < maxForks && performance.now() < adaptive.deadline) {
    const wide = adaptive.wideRows([...measurements.values()]);
    if (wide.length === 0) break;
    // Every target of a wide row runs all its rows again, not just the wide ones: a
    // process's speed on a row depends on the rows it ran before (the JIT's feedback). Extra
    // forks that ran only the wide rows were up to 25 % slower than the base forks
    // (snappyjs column-sidecar decode with --codec snappyjs: 27–31 µs against 21–27 µs).
    const targets = new Set(plan.filter((c) => wide.includes(c.row)).map((c) => specKey(c.spec)));
    total = index + plan.filter((c) => targets.has(specKey(c.spec))).length;
    await runFork(ran++, targets);
  }
  for (const m of measurements.values()) m.forkMedians.length = ran;
  return { measurements: [...measurements.values()], failures };
}

/** Forks whose peak memory makes a case's figure: Lodestar's three fresh processes. */
export const PEAK_FORKS = 3;

/** A child that does not answer one timing request in this long is killed. */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * Time the planned cases in forks (child processes, or this process with `--forks 0`),
 * with live progress on stderr; lost forks are logged.
 */
export async function timeCases(
  rows: readonly (RowInputs & { label: string })[],
  plan: readonly PlannedCase[],
  timing: TimingOptions,
  io: Io,
  log: (line: string) => void,
  where: {
    readonly browser?: Browser;
    readonly runtime?: ForkRuntime;
    /** With extra forks allowed: the codec whose ratios decide which rows get them. */
    readonly reference?: string;
    /** `--pin`: each fork's processes on one CPU (affinity.ts). */
    readonly pin?: boolean;
  } = {},
): Promise<
  Awaited<ReturnType<typeof runForks>> & { readonly cpuIdle: string; readonly affinity: string }
> {
  const forks = Math.max(1, timing.forks);
  // A native program reads its inputs from the folder even when nothing else forks.
  const inputsDir =
    timing.forks === 0 && !plan.some((c) => c.spec.native || c.spec.runtime)
      ? undefined
      : mkdtempSync(join(tmpdir(), "snappykit-bench-"));
  let measured: Awaited<ReturnType<typeof runForks>>;
  const idle = holdPollingIdle();
  // Pinning applies to fork processes only: not to a browser's pages or --forks 0.
  const affinity =
    where.browser || timing.forks === 0 ? forkAffinity(false) : forkAffinity(where.pin === true);
  try {
    if (inputsDir) writeInputs(inputsDir, rows);
    const { browser, runtime, reference } = where;
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
      return runtime?.command ?? NODE_RUNTIME.command!;
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
      rows.map((r) => ({ label: r.label })),
      forks,
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
  return { ...measured, cpuIdle: idle.note, affinity: affinity.note };
}

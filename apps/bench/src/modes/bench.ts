// The payload run (`pnpm bench`): every selected codec (and, on two payloads, its raw
// library) times every op on every payload in forks; the report has each case's figure,
// each codec relative to the reference and to the fastest, the adapters' overhead and, with
// `--compare`, each case against a baseline.
import { resolve } from "node:path";
import type { Unloaded } from "@snappykit/workspace";
import { UsageError } from "../inputs/args.js";
import { buildCases, pickOverheadPayloads, rawTarget } from "../inputs/cases.js";
import { codecTarget } from "../inputs/catalog.js";
import { otherRuntimes, readReport, readSafety } from "../inputs/reports.js";
import { type Selection, selectRun } from "../inputs/select.js";
import { hasGc } from "../measure/run.js";
import { type TimedCases, timeAndSummarise, timingFor } from "../measure/time.js";
import type { BenchCase } from "../model/case.js";
import type { CliOptions } from "../model/options.js";
import { type BenchReport, REPORT_SCHEMA } from "../model/report.js";
import type { TimingOptions } from "../model/timing.js";
import { compareCases, forksToTest, regressions } from "../summarise/compare.js";
import { computeOverhead, relativeRows } from "../summarise/results.js";
import type { Mode, Selected } from "./mode.js";

interface BenchSelection extends Selection, Selected {
  readonly cases: readonly BenchCase[];
  readonly unavailable: readonly Unloaded[];
  /** `--compare`'s report, read before anything is timed. */
  readonly baseline?: BenchReport;
}

interface Timed extends TimedCases {
  readonly timing: TimingOptions;
}

export const benchMode: Mode<"bench", BenchSelection, Timed> = {
  kind: "bench",

  select({ opts, log }, catalog) {
    // A bad baseline must fail now, not after minutes of timing.
    let baseline: BenchReport | undefined;
    if (opts.compare) {
      try {
        baseline = readReport(resolve(opts.compare));
      } catch (error) {
        throw new UsageError(`--compare: ${(error as Error).message}`);
      }
    }
    if (baseline && opts.failOnRegression) checkTestable(opts, baseline);
    const selection = selectRun(opts, catalog);
    const { selected, requested, payloads, ops } = selection;
    if (!hasGc())
      log("warning: run node with --expose-gc (pnpm bench does): no allocation figures");
    const targets = selected.map(codecTarget);
    const rawTargets = catalog.raw
      .filter((r) => selected.some((s) => s.id === r.id))
      .map((r) => rawTarget(r.id, r.raw));
    const cases = buildCases({
      targets,
      rawTargets,
      payloads,
      ops,
      overheadPayloads: pickOverheadPayloads(payloads),
      explicitOps: opts.ops !== undefined,
    });
    if (!cases.some((c) => requested.includes(c.target.codec))) {
      throw new UsageError(
        `nothing to time: no selected codec offers ${ops.map((o) => o.id).join(", ")} ` +
          `(async ops need a thread-pool API: ${
            catalog.codecs
              .filter((a) => a.codec.compressAsync)
              .map((a) => a.id)
              .join(", ") || "none loaded"
          })`,
      );
    }
    return {
      ...selection,
      codecs: selected,
      targets: [...targets, ...rawTargets],
      describe: `${targets.length} codecs (+ raw libraries) × ${payloads.length} payloads`,
      cases,
      unavailable: catalog.failed,
      ...(baseline && { baseline }),
    };
  },

  complete: (opts) =>
    !opts.quick &&
    opts.forks !== 0 &&
    !opts.codecs &&
    !opts.payloads &&
    !opts.data &&
    !opts.ops &&
    opts.slowdowns.length === 0,

  async measure(run, { selection, gate, runtime }) {
    const { opts, log } = run;
    const { cases, selected, reference } = selection;
    const timing = timingFor(opts, true);
    const forks = Math.max(1, timing.forks);
    log(
      `timing ${cases.length} cases × ${forks} fork${forks === 1 ? "" : "s"}` +
        (timing.extraForks > 0
          ? ` (+ up to ${timing.extraForks} for rows whose ratios are wider than ±${timing.targetWidthPercent} %) `
          : " ") +
        `(${opts.quick ? "quick" : "full"} mode${timing.forks === 0 ? ", in this process" : `, a ${runtime.browser ? "page" : "process"} per codec and fork, in ${runtime.name} ${runtime.version}`})`,
    );
    const timed = await timeAndSummarise(cases, gate, selected, opts, timing, run, {
      runtime,
      reference,
    });
    return { ...timed, timing };
  },

  summarise({ opts, log, started, command }, { selection, gate, environment, runtime, out }, m) {
    const { reference, payloads, ops, selected } = selection;
    const report: BenchReport = {
      schema: REPORT_SCHEMA,
      command,
      mode: opts.quick ? "quick" : "full",
      timing: m.timing,
      durationMs: performance.now() - started,
      environment: { ...environment, cpuIdle: m.cpuIdle, affinity: m.affinity },
      reference,
      gateReference: gate.reference,
      gateChecks: gate.checks,
      payloads: payloads.map(({ name, description, kind, items, bytes }) => ({
        name,
        description,
        kind,
        items: items.length,
        bytes,
      })),
      ops: ops.map(({ id, description }) => ({ id, description })),
      codecs: selected.map((a) => ({
        id: a.id,
        packageName: a.packageName,
        library: a.codec.library,
        runtime: a.codec.runtime,
        async:
          typeof a.codec.compressAsync === "function" ||
          typeof a.codec.uncompressAsync === "function",
        ...(a.variant !== undefined && { variantOf: a.adapter }),
      })),
      unavailable: selection.unavailable.map(({ id, packageName, reason }) => ({
        id,
        packageName,
        reason,
      })),
      sizes: gate.sizes,
      cases: m.cases,
      relative: relativeRows(m.cases, reference),
      overhead: computeOverhead(m.cases),
      failures: m.failures,
    };
    const compared =
      selection.baseline &&
      compareCases(selection.baseline, report, opts.thresholdPercent, opts.compare!);
    for (const w of compared?.info.warnings ?? []) log(`warning: ${w}`);
    // What the Markdown shows beside the figures enters here, so renderers read only the report.
    // A run filtered by --codec shows only its codecs' fuzzing rows.
    const safety = readSafety(undefined, opts.codecs && selection.selected.map((a) => a.id));
    const runtimes = otherRuntimes(runtime.name, out, log);
    return {
      ...report,
      ...(compared && { comparison: compared.entries, compared: compared.info }),
      ...(safety && { safety }),
      ...(runtimes.length > 0 && { runtimes }),
    };
  },

  exitCode({ opts, log }, report) {
    // A gate that can find nothing must not pass as if it had looked (forks lost in the run).
    if (opts.failOnRegression && report.compared?.testable === 0) {
      log(
        `error: --fail-on-regression: nothing was testable: 0 of ${report.comparison?.length ?? 0} cases ` +
          `testable (needs ≥ ${report.compared.forksToTest} forks a side)`,
      );
      return 2;
    }
    const slower = opts.failOnRegression ? regressions(report.comparison ?? []).length : 0;
    if (slower === 0) return 0;
    log(`significant slowdown beyond ${opts.thresholdPercent} % in ${slower} case(s)`);
    return 1;
  },
};

/**
 * `--fail-on-regression` against `baseline` with this run's forks: refused before anything is
 * timed when either side has fewer forks than a test needs (`--quick`'s 3 can never give
 * p ≤ 0.05), since every case would be untestable.
 * @throws UsageError saying nothing would be testable.
 */
function checkTestable(opts: CliOptions, baseline: BenchReport): void {
  const needed = forksToTest();
  const ours = Math.max(1, timingFor(opts, true).forks);
  const theirs = Math.max(0, ...baseline.cases.map((c) => c.forks));
  if (ours >= needed && theirs >= needed) return;
  const which =
    ours < needed
      ? `this run times ${ours} fork${ours === 1 ? "" : "s"} a case${opts.quick && opts.forks === undefined ? " (--quick)" : ""}`
      : `the baseline has ${theirs} forks a case`;
  throw new UsageError(
    `--fail-on-regression: nothing would be testable: 0 of ${baseline.cases.length} cases testable ` +
      `(needs ≥ ${needed} forks a side; ${which}). Use --forks ${needed} or more on both runs`,
  );
}

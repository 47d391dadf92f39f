// The bench run from start to end, one step per module: select.ts (what to time) →
// cases.ts → prepare.ts (inputs and the gate) → plan.ts → schedule.ts (timed forks) →
// results.ts → report/build.ts (the one report object) → compare.ts → report/write.ts and
// the renderers in report/.
import { resolve } from "node:path";
import { discoverAdapters, loadAdapters, repoRoot } from "@snappykit/workspace";
import { launchChromium } from "@snappykit/workspace/chromium";
import type { Browser } from "playwright-core";
import { type CliOptions, HELP, parseCliArgs, UsageError } from "./args.js";
import {
  adapterTarget,
  buildCases,
  pickOverheadPayloads,
  rawTarget,
  type Target,
} from "./cases.js";
import { compareCases, regressions } from "./compare.js";
import { collectEnvironment } from "./env.js";
import { loadPayloadSource } from "./payloads.js";
import { planCases } from "./plan.js";
import { chooseReference, GateError, prepareInputs } from "./prepare.js";
import { clearProgress, type Io } from "./progress.js";
import { buildReport } from "./report/build.js";
import { formatDuration } from "./report/format.js";
import { readReport } from "./report/json.js";
import type { BenchReport } from "./report/schema.js";
import { renderTerminal } from "./report/terminal.js";
import { outputDir, writeBenchReport } from "./report/write.js";
import { summarise } from "./results.js";
import { FULL_TIMING, hasGc, QUICK_TIMING, type TimingOptions } from "./run.js";
import { type ForkRuntime, processRuntime } from "./runtime.js";
import { timeCases } from "./schedule.js";
import { listing, selectRun } from "./select.js";

/** Run the bench for `argv`; resolves to the process exit code. */
export async function main(argv: readonly string[], io: Io = process): Promise<number> {
  const log = (line: string) => io.stderr.write(`${line}\n`);
  try {
    const opts = parseCliArgs(argv);
    // The sweep and the soak are their own runs (sweep.ts, soak.ts), loaded only when asked for.
    if (opts.mode === "sweep" && !opts.help && !opts.list)
      return await (await import("./sweep.js")).runSweep(opts, io, log);
    if (opts.mode === "soak" && !opts.help && !opts.list)
      return await (await import("./soak.js")).runSoak(opts, io, log);
    return await run(opts, io, log);
  } catch (error) {
    clearProgress(io.stderr);
    if (error instanceof UsageError) {
      log(`error: ${error.message}\n(see --help)`);
      return 2;
    }
    if (error instanceof GateError) {
      log(`ABORTED: ${error.message}`);
      return 3;
    }
    log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 3;
  }
}

async function run(opts: CliOptions, io: Io, log: (line: string) => void): Promise<number> {
  if (opts.help) {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  const started = performance.now();
  // A bad baseline must fail now, not after minutes of timing.
  let baseline: BenchReport | undefined;
  if (opts.compare) {
    try {
      baseline = readReport(resolve(opts.compare));
    } catch (error) {
      throw new UsageError(`--compare: ${(error as Error).message}`);
    }
  }
  // A runtime that is not installed must fail now too.
  const browser = opts.runtime === "browser" ? await launchChromium(log) : undefined;
  try {
    return await timeAndReport(opts, io, log, started, baseline, browser);
  } finally {
    await browser?.close();
  }
}

async function timeAndReport(
  opts: CliOptions,
  io: Io,
  log: (line: string) => void,
  started: number,
  baseline: BenchReport | undefined,
  browser: Browser | undefined,
): Promise<number> {
  const runtime: ForkRuntime = browser
    ? { name: "browser", version: browser.version() }
    : processRuntime(opts.runtime as "node" | "bun" | "deno");
  // 1. What to time: adapters, payloads (from the fixtures), ops.
  const entries = discoverAdapters();
  const { loaded, failed } = await loadAdapters(entries);
  const source = loadPayloadSource();
  const { available, requested, reference, selected, payloads, ops } = selectRun(
    opts,
    loaded,
    failed,
    entries.map((e) => e.id),
    source,
  );
  if (opts.list) {
    io.stdout.write(
      listing(
        available,
        failed,
        source,
        ops.map((o) => o.id),
      ),
    );
    return 0;
  }
  for (const f of failed) log(`unavailable: ${f.id} (${f.packageName}): ${f.reason}`);
  if (!hasGc()) log("warning: run node with --expose-gc (pnpm bench does): no allocation figures");

  const targets = selected.map((a) => adapterTarget(a.id, a.codec, a.variantOf !== undefined));
  const rawTargets: Target[] = loaded
    .filter((l) => selected.some((s) => s.id === l.id))
    .map((l) => rawTarget(l.id, l.raw));
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
          available
            .filter((a) => a.codec.compressAsync)
            .map((a) => a.id)
            .join(", ") || "none loaded"
        })`,
    );
  }

  // 2. Prepared inputs: every payload compressed by the gate reference, every codec checked.
  const gateReference = chooseReference(available.map((a) => adapterTarget(a.id, a.codec)));
  log(
    `gate: ${targets.length} codecs (+ raw libraries) × ${payloads.length} payloads against ${gateReference.codec}`,
  );
  const gate = await prepareInputs(gateReference, [...targets, ...rawTargets], payloads);
  // Before timing: the commit and date of what is measured, not of whatever the work tree
  // holds when minutes of timing end.
  const environment = collectEnvironment(
    repoRoot,
    Object.fromEntries(selected.map((a) => [a.id, a.codec.library])),
    { name: runtime.name, version: runtime.version },
  );

  // 3. Timed cases, in forks.
  const base = opts.quick ? QUICK_TIMING : FULL_TIMING;
  // `--forks N` means exactly N forks: no adaptive extras.
  const timing: TimingOptions = {
    ...base,
    clock: opts.clock,
    ...(opts.forks !== undefined && { forks: opts.forks, extraForks: 0 }),
  };
  const { rows, plan, identities } = planCases(cases, gate.prepared, selected, opts.slowdowns);
  const forks = Math.max(1, timing.forks);
  log(
    `timing ${cases.length} cases × ${forks} fork${forks === 1 ? "" : "s"}` +
      (timing.extraForks > 0
        ? ` (+ up to ${timing.extraForks} for rows whose ratios are wider than ±${timing.targetWidthPercent} %) `
        : " ") +
      `(${opts.quick ? "quick" : "full"} mode${timing.forks === 0 ? ", in this process" : `, a ${browser ? "page" : "process"} per codec and fork, in ${runtime.name} ${runtime.version}`})`,
  );
  const measured = await timeCases(rows, plan, timing, io, log, { browser, runtime, reference });

  // 4. The report: figures per case (runForks keeps plan order), then the comparison.
  let report = buildReport({
    command: `pnpm bench${process.argv.length > 2 ? ` ${process.argv.slice(2).join(" ")}` : ""}`,
    quick: opts.quick,
    timing,
    durationMs: performance.now() - started,
    environment: { ...environment, cpuIdle: measured.cpuIdle },
    reference,
    gate,
    payloads,
    ops,
    selected,
    unavailable: failed,
    cases: measured.measurements.map((m, i) => summarise(identities[i]!, m)),
    failures: measured.failures,
  });
  let exitCode = 0;
  if (baseline && opts.compare) {
    const { entries, info } = compareCases(baseline, report, opts.thresholdPercent, opts.compare);
    report = { ...report, comparison: entries, compared: info };
    for (const w of info.warnings) log(`warning: ${w}`);
    if (opts.failOnRegression && regressions(entries).length > 0) exitCode = 1;
  }

  // 5. Renderers: files, then the terminal.
  const complete =
    !opts.quick &&
    timing.forks > 0 &&
    !opts.codecs &&
    !opts.payloads &&
    !opts.ops &&
    opts.slowdowns.length === 0;
  const written = writeBenchReport(
    report,
    opts.formats,
    outputDir(opts.out, complete, runtime.name),
    log,
  );
  io.stdout.write(`${renderTerminal(report, io.stdout.isTTY === true && !process.env.NO_COLOR)}\n`);
  log(`wrote ${written.join(", ")} in ${formatDuration(performance.now() - started)}`);
  if (!opts.out && !complete) {
    log(
      "(a filtered, quick or --forks 0 run: the full report in apps/bench/results/ is left as it was)",
    );
  }
  if (exitCode === 1) {
    log(
      `significant slowdown beyond ${opts.thresholdPercent} % in ${regressions(report.comparison!).length} case(s)`,
    );
  }
  return exitCode;
}

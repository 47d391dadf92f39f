// The bench run from start to end: load, gate, time, report.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { discoverAdapters, type LoadedAdapter, loadAdapters, repoRoot } from "./adapters.js";
import { type CliOptions, HELP, parseCliArgs, RUNTIMES, selectNames, UsageError } from "./args.js";
import { BrowserWorker } from "./browser.js";
import {
  adapterTarget,
  type BenchCase,
  buildCases,
  caseKey,
  OPS,
  type PreparedPayload,
  pickOverheadPayloads,
  rawTarget,
  type Target,
} from "./cases.js";
import { launchChromium } from "./chromium.js";
import { compareCases, regressions } from "./compare.js";
import { collectEnvironment } from "./env.js";
import { ChildWorker, LocalWorker, type RowInputs, writeInputs } from "./fork.js";
import { chooseReference, GateError, runGate } from "./gate.js";
import { loadPayloadSource, type PayloadSource } from "./payloads.js";
import { formatDuration } from "./report/format.js";
import { type BenchReport, REPORT_SCHEMA, readReport, renderJson } from "./report/json.js";
import { renderMarkdown } from "./report/markdown.js";
import { loadSafetySection } from "./report/safety.js";
import { renderSvg } from "./report/svg.js";
import { clearProgress, progressPrinter, renderTerminal } from "./report/terminal.js";
import {
  type CaseIdentity,
  computeOverhead,
  relativeRows,
  summarise,
  wideRows,
} from "./results.js";
import { FULL_TIMING, hasGc, QUICK_TIMING, type TimingOptions } from "./run.js";
import { type ForkRuntime, processRuntime } from "./runtime.js";
import { type PlannedCase, runForks, type StartWorker } from "./schedule.js";

/** The codec relative figures divide by unless `--reference` names another. */
export const DEFAULT_REFERENCE = "napi";
/** The reference of `--runtime browser` runs. */
export const BROWSER_REFERENCE = "ts";

/** A child that does not answer one timing request in this long is killed. */
const REQUEST_TIMEOUT_MS = 120_000;

/** Streams the run writes to (replaceable in tests). */
export interface Io {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
}

/** Default report folder. */
export const DEFAULT_OUT = join(repoRoot, "apps/bench/results");

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
  const entries = discoverAdapters();
  const { loaded, failed } = await loadAdapters(entries);
  const source = loadPayloadSource();

  const available = availableCodecs(loaded);
  const ids = [...new Set([...entries.map((e) => e.id), ...available.map((a) => a.id)])];
  const requested = opts.codecs
    ? selectNames("codec", opts.codecs, ids)
    : available.map((a) => a.id);
  const notLoaded = requested.filter((id) => !available.some((a) => a.id === id));
  if (opts.codecs && notLoaded.length > 0) {
    throw new UsageError(
      notLoaded
        .map((id) => `codec "${id}" failed to load: ${failed.find((f) => f.id === id)?.reason}`)
        .join("; "),
    );
  }
  // A page cannot load the native default, so browser runs divide by the portable codec.
  const preferred = opts.runtime === "browser" ? BROWSER_REFERENCE : DEFAULT_REFERENCE;
  const reference =
    opts.reference ?? (available.some((a) => a.id === preferred) ? preferred : available[0]?.id);
  if (reference === undefined) throw new Error("no adapter loaded; see --list");
  selectNames(
    "reference codec",
    [reference],
    available.map((a) => a.id),
  );
  // Relative figures need the reference timed in the same forks.
  const codecIds = requested.includes(reference) ? requested : [...requested, reference];
  for (const s of opts.slowdowns) selectNames("--slow-down codec", [s.codec], codecIds);
  const payloadNames = source.all.map((p) => p.name);
  const wanted =
    opts.payloads === undefined
      ? [...source.defaults]
      : opts.payloads.includes("all")
        ? payloadNames
        : selectNames("payload", opts.payloads, [...payloadNames, "all"]);
  const ops = opts.ops
    ? selectNames(
        "op",
        opts.ops,
        OPS.map((o) => o.id),
      ).map((id) => OPS.find((o) => o.id === id)!)
    : [...OPS];

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

  const selected = available.filter((a) => codecIds.includes(a.id));
  const targets = selected.map((a) => adapterTarget(a.id, a.codec, a.variantOf !== undefined));
  const rawTargets: Target[] = loaded
    .filter((l) => codecIds.includes(l.id))
    .map((l) => rawTarget(l.id, l.raw));
  const payloads = wanted.map((n) => source.all.find((p) => p.name === n)!);
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

  const gateReference = chooseReference(available.map((a) => adapterTarget(a.id, a.codec)));
  log(
    `gate: ${targets.length} codecs (+ raw libraries) × ${payloads.length} payloads against ${gateReference.codec}`,
  );
  const gate = await runGate(gateReference, [...targets, ...rawTargets], payloads);
  // Before timing: the commit and date of what is measured, not of whatever the work tree
  // holds when minutes of timing end.
  const environment = collectEnvironment(
    repoRoot,
    Object.fromEntries(selected.map((a) => [a.id, a.codec.library])),
    { name: runtime.name, version: runtime.version },
  );

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
  // runForks returns one measurement per planned case, in plan order.
  const results = measured.measurements.map((m, i) => summarise(identities[i]!, m));

  const command = `pnpm bench${process.argv.length > 2 ? ` ${process.argv.slice(2).join(" ")}` : ""}`;
  const codecs = selected.map((a) => ({
    id: a.id,
    packageName: a.packageName,
    library: a.codec.library,
    runtime: a.codec.runtime,
    async:
      typeof a.codec.compressAsync === "function" || typeof a.codec.uncompressAsync === "function",
    ...(a.variantOf && { variantOf: a.variantOf }),
  }));
  let report: BenchReport = {
    schema: REPORT_SCHEMA,
    command,
    mode: opts.quick ? "quick" : "full",
    timing,
    durationMs: performance.now() - started,
    environment,
    reference,
    gateReference: gate.reference,
    gateChecks: gate.checks,
    payloads: payloads.map((p) => ({
      name: p.name,
      description: p.description,
      kind: p.kind,
      items: p.items.length,
      bytes: p.bytes,
    })),
    ops: ops.map((o) => ({ id: o.id, description: o.description })),
    codecs,
    unavailable: failed.map((f) => ({ id: f.id, packageName: f.packageName, reason: f.reason })),
    sizes: gate.sizes,
    cases: results,
    relative: relativeRows(results, reference),
    overhead: computeOverhead(results),
    failures: measured.failures,
  };
  let exitCode = 0;
  if (baseline && opts.compare) {
    const { entries, info } = compareCases(baseline, report, opts.thresholdPercent, opts.compare);
    report = { ...report, comparison: entries, compared: info };
    for (const w of info.warnings) log(`warning: ${w}`);
    if (opts.failOnRegression && regressions(entries).length > 0) exitCode = 1;
  }

  // Only a full run of the default matrix replaces the report in the default folder.
  const complete =
    !opts.quick &&
    timing.forks > 0 &&
    !opts.codecs &&
    !opts.payloads &&
    !opts.ops &&
    opts.slowdowns.length === 0;
  // Other runtimes' reports go to a folder of their own, so the Node report stays put.
  const runtimeDir = runtime.name === "node" ? [] : [runtime.name];
  const outDir = opts.out
    ? resolve(opts.out)
    : complete
      ? join(DEFAULT_OUT, ...runtimeDir)
      : join(DEFAULT_OUT, "partial", ...runtimeDir);
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  const write = (name: string, text: string) => {
    const path = join(outDir, name);
    writeFileSync(path, text);
    written.push(path);
  };
  if (opts.formats.includes("json")) write("bench.json", renderJson(report));
  if (opts.formats.includes("md")) {
    const safety = loadSafetySection(repoRoot);
    const runtimes = opts.out ? [report] : runtimeReports(report, complete, log);
    write(
      "bench.md",
      renderMarkdown(report, { ...(safety !== undefined && { safety }), runtimes }),
    );
  }
  if (opts.formats.includes("svg")) write("bench.svg", renderSvg(report));

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

/** A codec the run can time, with where a child process loads it from. */
export interface AvailableCodec {
  readonly id: string;
  readonly packageName: string;
  readonly codec: LoadedAdapter["codec"];
  readonly variantOf: string | undefined;
  readonly entry: string;
}

/**
 * Every codec the run can time: each adapter's default codec under the adapter's id,
 * plus its variants (non-default settings) under their own names.
 */
export function availableCodecs(loaded: readonly LoadedAdapter[]): AvailableCodec[] {
  return loaded.flatMap((l) => [
    { id: l.id, packageName: l.packageName, codec: l.codec, variantOf: undefined, entry: l.entry },
    ...l.variants.map((v) => ({
      id: v.name,
      packageName: l.packageName,
      codec: v,
      variantOf: l.id,
      entry: l.entry,
    })),
  ]);
}

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
  } = {},
): Promise<Awaited<ReturnType<typeof runForks>>> {
  const forks = Math.max(1, timing.forks);
  const inputsDir =
    timing.forks === 0 ? undefined : mkdtempSync(join(tmpdir(), "snappykit-bench-"));
  let measured: Awaited<ReturnType<typeof runForks>>;
  try {
    if (inputsDir) writeInputs(inputsDir, rows);
    const { browser, runtime, reference } = where;
    const start: StartWorker = browser
      ? (spec) => BrowserWorker.start(spec, browser, rows, timing, REQUEST_TIMEOUT_MS)
      : inputsDir
        ? (spec) => ChildWorker.start(spec, inputsDir, timing, REQUEST_TIMEOUT_MS, runtime?.command)
        : (spec) => LocalWorker.start(spec, rows, timing);
    measured = await runForks(
      plan,
      rows.map((r) => ({ label: r.label })),
      timing,
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
    if (inputsDir) rmSync(inputsDir, { recursive: true, force: true });
  }
  clearProgress(io.stderr);
  for (const f of measured.failures) {
    log(`fork ${f.fork + 1} lost ${f.codec}${f.impl === "raw" ? " (raw)" : ""}: ${f.reason}`);
  }
  return measured;
}

/**
 * This report and the latest report of every other runtime beside it (results/<runtime>,
 * or partial/<runtime>), in RUNTIMES order, for the Markdown's "Runtimes" section.
 */
function runtimeReports(
  report: BenchReport,
  complete: boolean,
  log: (line: string) => void,
): BenchReport[] {
  const base = complete ? DEFAULT_OUT : join(DEFAULT_OUT, "partial");
  const current = report.environment.runtime?.name ?? "node";
  return RUNTIMES.flatMap((name) => {
    if (name === current) return [report];
    const path = join(base, ...(name === "node" ? [] : [name]), "bench.json");
    if (!existsSync(path)) return [];
    try {
      return [readReport(path)];
    } catch (error) {
      log(`warning: leaving ${path} out of the Runtimes section: ${(error as Error).message}`);
      return [];
    }
  });
}

/**
 * Turn the case list into what the forks need: one input row per payload × op, and per
 * case the target spec a child builds and the row it times.
 */
export function planCases(
  cases: readonly BenchCase[],
  prepared: readonly PreparedPayload[],
  selected: readonly { id: string; entry: string; variantOf: string | undefined }[],
  slowdowns: CliOptions["slowdowns"],
): {
  rows: (RowInputs & { label: string })[];
  plan: PlannedCase[];
  identities: CaseIdentity[];
} {
  const rows: (RowInputs & { label: string })[] = [];
  const rowIndex = new Map<string, number>();
  const plan: PlannedCase[] = [];
  const identities: CaseIdentity[] = [];
  for (const c of cases) {
    const p = prepared.find((x) => x.payload.name === c.payload.name)!;
    const rk = `${p.payload.name}\u0000${c.op.id}`;
    let row = rowIndex.get(rk);
    if (row === undefined) {
      row = rows.length;
      rowIndex.set(rk, row);
      rows.push({
        payload: p.payload.name,
        op: c.op.id,
        outputBytes: c.op.outputBytes(p),
        items: c.op.inputs(p),
        label: `{codec}/${p.payload.name}/${c.op.id}`,
      });
    }
    const a = selected.find((s) => s.id === c.target.codec)!;
    const slow = slowdowns.find((s) => s.codec === c.target.codec);
    plan.push({
      spec: {
        codec: c.target.codec,
        impl: c.target.impl,
        entry: a.entry,
        ...(a.variantOf && { variant: true }),
        ...(slow && { slowdown: slow.percent / 100 }),
      },
      row,
    });
    identities.push({
      key: caseKey({
        codec: c.target.codec,
        impl: c.target.impl,
        payload: p.payload.name,
        op: c.op.id,
      }),
      codec: c.target.codec,
      impl: c.target.impl,
      library: c.target.library,
      payload: p.payload.name,
      op: c.op.id,
      items: p.payload.items.length,
      bytes: p.payload.bytes,
    });
  }
  return { rows, plan, identities };
}

function listing(
  loaded: readonly { id: string; codec: { library: string; runtime: string } }[],
  failed: readonly { id: string; reason: string }[],
  source: PayloadSource,
  ops: readonly string[],
): string {
  const lines = ["codecs:"];
  for (const l of loaded)
    lines.push(`  ${l.id.padEnd(12)} ${l.codec.library} (${l.codec.runtime})`);
  for (const f of failed) lines.push(`  ${f.id.padEnd(12)} UNAVAILABLE: ${f.reason}`);
  lines.push("payloads (* = default set):");
  for (const p of source.all) {
    const mark = source.defaults.includes(p.name) ? "*" : " ";
    lines.push(
      `  ${mark} ${p.name.padEnd(28)} ${p.items.length} item(s), ${p.bytes} B: ${p.description}`,
    );
  }
  lines.push(`ops: ${ops.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

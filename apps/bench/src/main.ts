// The bench run from start to end: load, gate, time, report.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { discoverAdapters, loadAdapters, repoRoot } from "./adapters.js";
import { type CliOptions, HELP, parseCliArgs, selectNames, UsageError } from "./args.js";
import {
  adapterTarget,
  buildCases,
  OPS,
  pickOverheadPayloads,
  rawTarget,
  type Target,
} from "./cases.js";
import { compareReports, regressions } from "./compare.js";
import { collectEnvironment } from "./env.js";
import { chooseReference, GateError, runGate } from "./gate.js";
import { loadPayloadSource, type PayloadSource } from "./payloads.js";
import { formatDuration } from "./report/format.js";
import {
  type BenchReport,
  computeOverhead,
  REPORT_SCHEMA,
  readReport,
  renderJson,
} from "./report/json.js";
import { renderMarkdown } from "./report/markdown.js";
import { loadSafetySection } from "./report/safety.js";
import { renderSvg } from "./report/svg.js";
import { clearProgress, progressPrinter, renderTerminal } from "./report/terminal.js";
import { FULL_TIMING, hasGc, QUICK_TIMING, runCases } from "./run.js";

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
    return await run(parseCliArgs(argv), io, log);
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
  const entries = discoverAdapters();
  const { loaded, failed } = await loadAdapters(entries);
  const source = loadPayloadSource();

  // Every codec the run can time: each adapter's default codec under the adapter's id,
  // plus its variants (non-default settings) under their own names.
  const available = loaded.flatMap((l) => [
    { id: l.id, packageName: l.packageName, codec: l.codec, variantOf: undefined },
    ...l.variants.map((v) => ({
      id: v.name,
      packageName: l.packageName,
      codec: v,
      variantOf: l.id,
    })),
  ]);
  const ids = [...new Set([...entries.map((e) => e.id), ...available.map((a) => a.id)])];
  const codecIds = opts.codecs
    ? selectNames("codec", opts.codecs, ids)
    : available.map((a) => a.id);
  const notLoaded = codecIds.filter((id) => !available.some((a) => a.id === id));
  if (opts.codecs && notLoaded.length > 0) {
    throw new UsageError(
      notLoaded
        .map((id) => `codec "${id}" failed to load: ${failed.find((f) => f.id === id)?.reason}`)
        .join("; "),
    );
  }
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
  if (opts.reference) {
    selectNames(
      "reference codec",
      [opts.reference],
      available.map((a) => a.id),
    );
  }

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

  const allTargets = available.map((a) => adapterTarget(a.id, a.codec, a.variantOf !== undefined));
  const reference = chooseReference(allTargets, opts.reference);
  const targets = allTargets.filter((t) => codecIds.includes(t.codec));
  const rawTargets: Target[] = loaded
    .filter((l) => codecIds.includes(l.id))
    .map((l) => rawTarget(l.id, l.raw));
  const payloads = wanted.map((n) => source.all.find((p) => p.name === n)!);

  log(
    `gate: ${targets.length} codecs (+ raw libraries) × ${payloads.length} payloads against ${reference.codec}`,
  );
  const gate = await runGate(reference, [...targets, ...rawTargets], payloads);

  const cases = buildCases({
    targets,
    rawTargets,
    prepared: gate.prepared,
    ops,
    overheadPayloads: pickOverheadPayloads(payloads),
    explicitOps: opts.ops !== undefined,
  });
  const timing = { ...(opts.quick ? QUICK_TIMING : FULL_TIMING), clock: opts.clock };
  log(`timing ${cases.length} cases (${opts.quick ? "quick" : "full"} mode)`);
  const results = await runCases(cases, timing, progressPrinter(io.stderr));
  clearProgress(io.stderr);

  const command = `pnpm bench${process.argv.length > 2 ? ` ${process.argv.slice(2).join(" ")}` : ""}`;
  const codecs = available
    .filter((a) => codecIds.includes(a.id))
    .map((a) => ({
      id: a.id,
      packageName: a.packageName,
      library: a.codec.library,
      runtime: a.codec.runtime,
      async:
        typeof a.codec.compressAsync === "function" ||
        typeof a.codec.uncompressAsync === "function",
      ...(a.variantOf && { variantOf: a.variantOf }),
    }));
  let report: BenchReport = {
    schema: REPORT_SCHEMA,
    command,
    mode: opts.quick ? "quick" : "full",
    timing,
    durationMs: performance.now() - started,
    environment: collectEnvironment(
      repoRoot,
      Object.fromEntries(codecs.map((c) => [c.id, c.library])),
    ),
    reference: reference.codec,
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
    overhead: computeOverhead(results),
  };
  let exitCode = 0;
  if (opts.compare) {
    const baseline = readReport(resolve(opts.compare));
    const comparison = compareReports(baseline, report, opts.thresholdPercent, opts.compare);
    report = { ...report, comparison };
    if (opts.failOnRegression && regressions(comparison).length > 0) exitCode = 1;
  }

  const outDir = opts.out ? resolve(opts.out) : DEFAULT_OUT;
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
    write("bench.md", renderMarkdown(report, safety === undefined ? {} : { safety }));
  }
  if (opts.formats.includes("svg")) write("bench.svg", renderSvg(report));

  io.stdout.write(`${renderTerminal(report, io.stdout.isTTY === true && !process.env.NO_COLOR)}\n`);
  log(`wrote ${written.join(", ")} in ${formatDuration(performance.now() - started)}`);
  if (exitCode === 1) {
    log(
      `regression beyond ${opts.thresholdPercent} % in ${regressions(report.comparison!).length} case(s)`,
    );
  }
  return exitCode;
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

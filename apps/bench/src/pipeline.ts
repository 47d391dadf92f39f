// The bench run, whatever its mode (modes/): select → gate → measure → summarise → one
// report object → every format of the formats table. The mode supplies what it selects,
// how it measures and the report it makes; the rest is done here, alike for every mode.

import { repoRoot } from "@snappykit/workspace";
import { formatDuration } from "@snappykit/workspace/format";
import { UsageError, withoutSeparator } from "./inputs/args.js";
import { gateReference, loadCatalog } from "./inputs/catalog.js";
import { readUserPayloads } from "./inputs/payloads.js";
import { prepareInputs } from "./inputs/prepare.js";
import { keptNote, outputDir } from "./inputs/reports.js";
import { listing } from "./inputs/select.js";
import { collectEnvironment, withEndLoad } from "./measure/env.js";
import { openRuntime } from "./measure/launch.js";
import type { Io } from "./measure/progress.js";
import type { CliOptions } from "./model/options.js";
import type { Outcome } from "./model/outcome.js";
import { MODES } from "./modes/index.js";
import type { RunContext } from "./modes/mode.js";
import { type Formats, fileFormats, render as renderFormat } from "./render/formats.js";
import { writeReport } from "./render/write.js";

/** Run `opts` (parsed from `argv`) and render its report in `formats`; resolves to the exit code. */
export async function runPipeline(
  opts: CliOptions,
  argv: readonly string[],
  io: Io,
  formats: Formats,
): Promise<number> {
  const log = (line: string) => io.stderr.write(`${line}\n`);
  const files = checkFormats(opts.formats, formats);
  const run: RunContext = {
    opts,
    io,
    log,
    started: performance.now(),
    command: `pnpm bench ${withoutSeparator(argv).join(" ")}`.trim(),
  };
  const mode = MODES[opts.mode];
  if ("read" in mode) {
    const outcome = mode.read(run);
    const target = mode.target?.(run);
    const dir = target?.dir ?? outputDir(opts.out, false, "merge");
    return render(outcome, formats, files, dir, run, target?.stem);
  }

  // 1. What to run: the adapters and payloads there are, and what the command line picks.
  // The user's files first: a bad path fails in a moment, before any adapter loads.
  const catalog = await loadCatalog(opts.data ? readUserPayloads(opts.data) : []);
  if (opts.list) {
    io.stdout.write(listing(catalog));
    await catalog.close();
    return 0;
  }
  for (const f of catalog.failed) log(`unavailable: ${f.id} (${f.packageName}): ${f.reason}`);
  const selection = mode.select(run, catalog);
  const runtime = await openRuntime(opts.runtime, log, opts.defaultRuntime);
  try {
    // 2. The gate: every payload compressed by the reference, every codec checked against it.
    const reference = gateReference(catalog);
    log(`gate: ${selection.describe} against ${reference.codec}`);
    const gate = await prepareInputs(reference, selection.targets, selection.payloads);
    await catalog.close();
    // Before timing: the commit and date of what is measured, not of whatever the work tree
    // holds when minutes of timing end.
    const environment = collectEnvironment(
      repoRoot,
      Object.fromEntries(selection.codecs.map((a) => [a.id, a.codec.library])),
      runtime,
    );
    const complete = mode.complete(opts);
    const prepared = {
      selection,
      gate,
      environment,
      runtime,
      out: outputDir(opts.out, complete, runtime.name),
    };

    // 3. Measure, 4. the one report object (with how busy the machine was by the end).
    const measured = await mode.measure(run, prepared);
    const load = withEndLoad(environment.load);
    const report = mode.summarise(
      run,
      { ...prepared, environment: { ...environment, ...(load && { load }) } },
      measured,
    );
    const outcome = { kind: mode.kind, report } as Outcome;

    // 5. Every format: the files asked for, then the terminal's.
    render(outcome, formats, files, prepared.out, run);
    if (!opts.out && !complete) log(keptNote(mode.kind, runtime.name));
    return mode.exitCode?.(run, report) ?? 0;
  } finally {
    await runtime.close();
  }
}

/** Write `outcome` in every file format asked for, then print the terminal's formats. */
function render(
  outcome: Outcome,
  formats: Formats,
  files: readonly string[],
  out: string,
  { io, log, started }: RunContext,
  stem?: string,
): number {
  const written = writeReport(outcome, formats, files, out, stem);
  const tty = io.stdout.isTTY === true;
  const view = {
    colour: tty && !process.env.NO_COLOR,
    ...(tty && io.stdout.columns > 0 && { width: io.stdout.columns }),
  };
  for (const format of Object.values(formats)) {
    if (format.extension !== undefined) continue;
    const text = renderFormat(format, outcome, view);
    if (text !== undefined) io.stdout.write(`${text}\n`);
  }
  log(`wrote ${written.join(", ")} in ${formatDuration(performance.now() - started)}`);
  return 0;
}

/**
 * The file formats `--format` names (every one when it names none).
 * @throws UsageError for a name that is not a file format of `formats`.
 */
function checkFormats(names: readonly string[] | undefined, formats: Formats): string[] {
  const valid = fileFormats(formats);
  const unknown = (names ?? []).filter((n) => !valid.includes(n));
  if (unknown.length > 0) {
    throw new UsageError(`unknown --format "${unknown[0]}"; valid: ${valid.join(", ")}`);
  }
  return [...new Set(names ?? valid)];
}

// `pnpm bench`: the command line in, an exit code out. What a run does is pipeline.ts,
// select → gate → measure → summarise → report → formats, whatever the mode.
import { HELP, parseCliArgs, UsageError } from "./inputs/args.js";
import { GateError } from "./inputs/prepare.js";
import { clearProgress, type Io } from "./measure/progress.js";
import { runPipeline } from "./pipeline.js";
import { FORMATS, type Formats } from "./render/formats.js";

/** Run the bench for `argv`, rendering in `formats`; resolves to the process exit code. */
export async function main(
  argv: readonly string[],
  io: Io = process,
  formats: Formats = FORMATS,
): Promise<number> {
  const log = (line: string) => io.stderr.write(`${line}\n`);
  try {
    const opts = parseCliArgs(argv);
    if (opts.help) {
      io.stdout.write(`${HELP}\n`);
      return 0;
    }
    return await runPipeline(opts, argv, io, formats);
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

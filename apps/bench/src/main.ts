// `pnpm bench`: the command line in, an exit code out. What a run does is pipeline.ts,
// select → gate → measure → summarise → report → formats, whatever the command; `bench docs`
// writes the docs from the committed reports (docs/generate.js).
import { parseCliArgs, UsageError } from "./inputs/args.js";
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
    const parsed = parseCliArgs(argv);
    if ("help" in parsed) {
      io.stdout.write(`${parsed.help}\n`);
      return 0;
    }
    if ("docs" in parsed) {
      const { docsCommand } = await import("./docs/generate.js");
      return docsCommand(parsed.docs, io);
    }
    return await runPipeline(parsed, argv, io, formats);
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

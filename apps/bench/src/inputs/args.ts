// The command line: `bench [command] [flags]`, one command per kind of run, each parsing
// only its own flags (node:util parseArgs), so a flag that means nothing to a command is an
// unknown flag there. Names of codecs and payloads are checked later, once they are known.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { closest, distance } from "fastest-levenshtein";
import { DEFAULT_THRESHOLD_PERCENT } from "../model/compare.js";
import {
  type CliOptions,
  DEFAULT_RUNTIME,
  type ModeName,
  NODE_RUNTIMES,
  RUNTIMES,
  type RuntimeName,
} from "../model/options.js";

/** A bad command line: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

interface Flag {
  readonly type: "string" | "boolean";
  readonly multiple?: boolean;
  /** The value's name in the help, e.g. "<ids>"; none for a boolean. */
  readonly value?: string;
  readonly help: string;
}

const list = (value: string, help: string): Flag => ({
  type: "string",
  multiple: true,
  value,
  help,
});
const one = (value: string, help: string): Flag => ({ type: "string", value, help });
const bool = (help: string): Flag => ({ type: "boolean", help });

const CODEC = list("<ids>", "only these codecs (comma-separated or repeated)");
const OP = list(
  "<ids>",
  "only these ops (`bench list` names them; default: every op that applies to a payload)",
);
const QUICK = bool("short forks (run: the whole matrix ≤ 90 s on 2 cores; CI)");
const FORKS = one(
  "<n>",
  "exactly n forks per codec (run: 9, then up to 12 more for rows wider than ±5 %; quick 3); 0 = in this process, once, no intervals",
);
const CLOCK = one("<wall|cpu>", "time sync ops by wall clock (default) or process CPU time");
const PIN = bool("each fork's processes on one CPU, the forks taking the CPUs in turn (taskset)");
const NODE_RUNTIME = one("<name>", `the Node the forks run in: ${NODE_RUNTIMES.join(", ")}`);
const OUTPUT = {
  out: one("<dir>", "where to write reports (default apps/bench/results; partial/ when filtered)"),
  format: list("<list>", "report files to write: json,md,svg (default all)"),
};

/** A command: what it does, its flags, and the arguments it takes (`[]`: none). */
interface Command {
  readonly mode: ModeName | "list" | "docs";
  readonly about: string;
  readonly args?: { readonly name: string; readonly min: number; readonly max: number };
  readonly flags: Readonly<Record<string, Flag>>;
}

export const COMMANDS: Readonly<Record<string, Command>> = {
  run: {
    mode: "bench",
    about:
      "time every codec on the payloads, each in fresh processes taking turns with the others (the default command)",
    flags: {
      quick: QUICK,
      forks: FORKS,
      codec: CODEC,
      payload: list("<names>", 'these payloads instead of the default set ("all": every one)'),
      data: list(
        "<path>",
        "your own bytes instead (repeatable): a file is one item, a folder one payload of its files",
      ),
      op: OP,
      reference: one("<id>", "the codec ratios divide by (default napi; ts in a browser)"),
      clock: CLOCK,
      runtime: one("<name>", `where the forks run: ${RUNTIMES.join(", ")} (default node26)`),
      pin: PIN,
      compare: one("<file.json>", "each case against an earlier report: slower, faster or not"),
      threshold: one(
        "<percent>",
        `with --compare: smaller changes are "within noise" (default ${DEFAULT_THRESHOLD_PERCENT})`,
      ),
      "fail-on-regression": bool("with --compare: exit 1 on a significant slowdown"),
      "slow-down": list("<id=pct>", "statistics self-test: codec id busy-waits pct % more"),
      ...OUTPUT,
    },
  },
  sweep: {
    mode: "sweep",
    about: "compress and uncompress on sizes 64 B to 4 MiB: where JS/wasm and native cross",
    flags: {
      quick: QUICK,
      forks: FORKS,
      codec: CODEC,
      op: OP,
      sizes: list("<bytes>", "these sizes instead (e.g. 3072,6144)"),
      data: one("<path>", "cut the sizes from this file or folder instead"),
      clock: CLOCK,
      runtime: NODE_RUNTIME,
      pin: PIN,
      ...OUTPUT,
    },
  },
  soak: {
    mode: "soak",
    about: "each codec in a fresh process under sustained gossip and a 50 MiB blob: RSS, GC",
    flags: {
      quick: QUICK,
      codec: CODEC,
      seconds: one("<s>", "length of the gossip scenario (default 20, quick 3)"),
      rounds: one("<n>", "rounds of the 50 MiB blob (default 20, quick 5)"),
      runtime: NODE_RUNTIME,
      ...OUTPUT,
    },
  },
  merge: {
    mode: "merge",
    about: "earlier runs (other machines or runtimes) side by side, with each codec's rank",
    args: { name: "<bench.json>...", min: 2, max: Number.POSITIVE_INFINITY },
    flags: OUTPUT,
  },
  render: {
    mode: "render",
    about: "a saved bench, sweep or soak report drawn again by today's renderers, beside it",
    args: { name: "<report.json>", min: 1, max: 1 },
    flags: OUTPUT,
  },
  list: {
    mode: "list",
    about: "the codecs (and why any failed to load), payloads and ops",
    flags: { data: list("<path>", "list these payloads of your own too") },
  },
  docs: {
    mode: "docs",
    about: "the results page and README tables, rewritten from the committed reports",
    flags: {
      check: bool("list what differs or links nowhere, exit 1 if anything does (npm test)"),
      stale: bool("list the reports whose packages changed since, exit 1 if any did (a release)"),
      adopt: bool("first copy the newest complete runs of apps/bench/results into apps/bench/docs"),
    },
  },
};

const flagsOf = (command: Command) =>
  Object.entries(command.flags).map(
    ([name, f]) => `  --${`${name} ${f.value ?? ""}`.padEnd(24)}${f.help}`,
  );

/** The help of `name`, or of the bench (every command) without one. */
export function help(name?: string): string {
  if (name !== undefined) {
    const c = COMMANDS[name]!;
    const args = c.args ? ` ${c.args.name}` : "";
    return [`pnpm bench ${name}${args} [flags]: ${c.about}`, "", ...flagsOf(c)].join("\n");
  }
  return [
    "pnpm bench [command] [flags]   (node --expose-gc apps/bench/dist/cli.js)",
    "",
    "Times every snappykit adapter of the workspace on Ethereum consensus payloads after a",
    "gate against libsnappy; every figure carries an interval over fresh processes.",
    "",
    ...Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(8)}${c.about}`),
    "",
    "`pnpm bench <command> --help` lists its flags; without a command, `run`:",
    "",
    ...flagsOf(COMMANDS.run!),
    "",
    "Exit codes: 0 done, 1 regression (--fail-on-regression), 2 bad flags, 3 gate failed or another error.",
  ].join("\n");
}

/**
 * The valid name `name` was most likely meant to be: the same but for case, two letters
 * swapped, or within one edit per three letters (dashes aside); undefined when none is that
 * close.
 */
export function didYouMean(name: string, valid: readonly string[]): string | undefined {
  const folded = valid.find((v) => v.toLowerCase() === name.toLowerCase());
  if (folded) return folded;
  const letters = (s: string) => [...s].sort().join("");
  const limit = Math.max(1, Math.floor(name.replace(/^-+/, "").length / 3));
  const near = valid.filter(
    (v) => distance(name, v) <= limit || (v.length === name.length && letters(v) === letters(name)),
  );
  return near.length === 0 ? undefined : closest(name, near);
}

const meant = (name: string, valid: readonly string[]) => {
  const guess = didYouMean(name, valid);
  return guess === undefined ? "" : ` (did you mean "${guess}"?)`;
};

/**
 * The arguments after the npm habit's separator: `pnpm bench -- --quick` hands the bench
 * `-- --quick`, which would otherwise end its flags before they start.
 */
export const withoutSeparator = (argv: readonly string[]): readonly string[] =>
  argv[0] === "--" ? argv.slice(1) : argv;

/** `bench docs` and its flags: not a run, so not CliOptions. */
interface DocsCommand {
  readonly docs: { readonly check: boolean; readonly stale: boolean; readonly adopt: boolean };
}

type Values = Record<string, string | boolean | string[] | undefined>;

const split = (values: unknown) =>
  values === undefined
    ? undefined
    : (values as string[])
        .flatMap((v) => v.split(","))
        .map((v) => v.trim())
        .filter((v) => v !== "");

/** `raw` as a number of `what`, whole when asked, within [min, max]. */
function numberOf(flag: string, raw: unknown, min: number, max: number, whole = true) {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
    throw new UsageError(
      `--${flag} must be a ${whole ? "whole number" : "number"} from ${min} to ${max}, got "${raw}"`,
    );
  }
  return n;
}

/**
 * Parse `args` (without node and the script; a leading `--` is dropped): the command and its
 * flags as CliOptions, `{ help }` for a help request, or `bench docs`'s flags.
 * @throws UsageError for an unknown command or flag, a missing value or a bad one.
 */
export function parseCliArgs(
  args: readonly string[],
): CliOptions | { readonly help: string } | DocsCommand {
  const argv = withoutSeparator(args);
  const first = argv[0];
  const named = first !== undefined && !first.startsWith("-");
  const name = named ? first : "run";
  if (name === "help") return { help: help(argv[1] && COMMANDS[argv[1]] ? argv[1] : undefined) };
  const command = COMMANDS[name];
  if (!command) {
    const names = [...Object.keys(COMMANDS), "help"];
    throw new UsageError(
      `unknown command "${name}"${meant(name, names)}; known: ${names.join(", ")}`,
    );
  }
  const parsed = parseCommand(
    name,
    named ? argv.slice(1) : argv,
    Object.fromEntries(
      Object.entries(command.flags).map(([f, { type, multiple }]) => [
        f,
        { type, ...(multiple && { multiple }) },
      ]),
    ),
  );
  const { values, positionals } = parsed;
  if (values.help) return { help: help(named ? name : undefined) };
  const { min = 0, max = 0 } = command.args ?? {};
  if (positionals.length < min) throw new UsageError(`bench ${name} needs ${command.args!.name}`);
  if (positionals.length > max) {
    throw new UsageError(`unexpected argument "${positionals[max]}" for \`bench ${name}\``);
  }
  const { mode, flags } = command;
  if (mode === "docs") {
    return { docs: { check: !!values.check, stale: !!values.stale, adopt: !!values.adopt } };
  }
  return optionsOf(mode, flags, values, positionals);
}

function parseCommand(name: string, argv: readonly string[], options: ParseArgsConfig["options"]) {
  const all = { ...options, help: { type: "boolean", short: "h" } } as const;
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: all }) as {
      values: Values;
      positionals: string[];
    };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const flag = /^Unknown option '(--?[^']+)'/.exec(message)?.[1];
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) {
      const flags = Object.keys(all).map((o) => `--${o}`);
      throw new UsageError(
        `unknown flag ${flag} for \`bench ${name}\`${meant(flag, flags)}; known: ${flags.join(", ")}`,
      );
    }
    throw new UsageError(message.replace(/\. To specify .*$/s, "."));
  }
}

/** The flags of the command of `mode` as CliOptions, each checked. */
function optionsOf(
  mode: ModeName | "list",
  flags: Command["flags"],
  values: Values,
  positionals: readonly string[],
): CliOptions {
  for (const [flag, f] of Object.entries(flags)) {
    if (f.multiple && values[flag] !== undefined && split(values[flag])!.length === 0)
      throw new UsageError(`--${flag} needs a value`);
  }
  const threshold =
    numberOf("threshold", values.threshold, 0, Number.POSITIVE_INFINITY, false) ??
    DEFAULT_THRESHOLD_PERCENT;
  const clock = (values.clock as string | undefined) ?? "wall";
  if (clock !== "wall" && clock !== "cpu") {
    throw new UsageError(`unknown --clock "${clock}"; valid: wall, cpu`);
  }
  const forks = numberOf("forks", values.forks, 0, 50);
  // --forks 0 times in this process: this Node, whatever the default runtime.
  const runtime =
    (values.runtime as string | undefined) ?? (forks === 0 ? "node" : DEFAULT_RUNTIME);
  const runtimes = flags.runtime === NODE_RUNTIME ? NODE_RUNTIMES : RUNTIMES;
  if (!(runtimes as readonly string[]).includes(runtime)) {
    throw new UsageError(`unknown --runtime "${runtime}"; valid: ${runtimes.join(", ")}`);
  }
  if (runtime === "browser" && clock === "cpu") {
    throw new UsageError("--clock cpu needs process CPU time, which a browser page has not");
  }
  if (runtime !== "node" && forks === 0) {
    throw new UsageError("--forks 0 times in this Node process: --runtime node, or none");
  }
  if (values["fail-on-regression"] && values.compare === undefined) {
    throw new UsageError("--fail-on-regression needs --compare <baseline.json>");
  }
  const slowdowns = (split(values["slow-down"]) ?? []).map((s) => {
    const m = /^([^=]+)=(\d+(?:\.\d+)?)$/.exec(s);
    if (!m || Number(m[2]) <= 0) {
      throw new UsageError(`--slow-down takes <codec>=<percent>, e.g. ts=20; got "${s}"`);
    }
    return { codec: m[1]!, percent: Number(m[2]) };
  });
  const sizes = split(values.sizes)?.map((s) => numberOf("sizes", s, 1, 64 << 20)!);
  const data =
    typeof values.data === "string" ? [values.data] : (values.data as string[] | undefined);
  const codecs = split(values.codec);
  const payloads = split(values.payload);
  const ops = split(values.op);
  const formats = split(values.format);
  const soakSeconds = numberOf("seconds", values.seconds, 1, 3600, false);
  const soakRounds = numberOf("rounds", values.rounds, 1, 1000);
  return {
    list: mode === "list",
    quick: values.quick === true,
    ...(codecs && { codecs }),
    ...(payloads && { payloads }),
    ...(data && { data }),
    ...(ops && { ops }),
    ...(values.out !== undefined && { out: values.out as string }),
    ...(formats && { formats }),
    ...(values.compare !== undefined && { compare: values.compare as string }),
    thresholdPercent: threshold,
    failOnRegression: values["fail-on-regression"] === true,
    ...(values.reference !== undefined && { reference: values.reference as string }),
    clock,
    runtime: runtime as RuntimeName,
    defaultRuntime: values.runtime === undefined,
    ...(forks !== undefined && { forks }),
    pin: values.pin === true,
    slowdowns,
    mode: mode === "list" ? "bench" : mode,
    ...(sizes && { sizes: [...new Set(sizes)].sort((a, b) => a - b) }),
    ...(soakSeconds !== undefined && { soakSeconds }),
    ...(soakRounds !== undefined && { soakRounds }),
    ...(mode === "merge" && { merge: positionals }),
    ...(mode === "render" && { render: positionals[0]! }),
  };
}

/**
 * Check requested names against the valid ones (case-sensitive, as ids are).
 * @throws UsageError naming the unknown ones, the name each was likely meant to be, and
 *   every valid name.
 */
export function selectNames(
  what: string,
  requested: readonly string[],
  valid: readonly string[],
): string[] {
  const unknown = requested.filter((n) => !valid.includes(n));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown ${what}${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"${meant(n, valid)}`).join(", ")}; valid: ${valid.join(", ")}`,
    );
  }
  return [...new Set(requested)];
}

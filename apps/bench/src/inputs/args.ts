// Command-line flags: parsed with node:util parseArgs, validated with messages that list
// what is valid. Names of codecs and payloads are checked later, once they are known.
import { parseArgs } from "node:util";
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

/** The `--help` text. */
export const HELP = `pnpm bench [flags]   (runs node --expose-gc apps/bench/dist/cli.js)

Times every snappykit adapter found in the workspace on Ethereum consensus payloads,
after a cross-compatibility gate against libsnappy (else napi). Each codec is timed in
fresh child processes (forks), interleaved with the others; every figure carries a 95 %
interval over the forks, and each codec is also given relative to a reference codec.

  --quick                 the whole matrix, 3 short forks (≤ 90 s on 2 cores; CI)
  --forks <n>             exactly n forks per codec (default: 9, then up to 12 more for
                          rows whose ratios are wider than ±5 %, within 5.5 min; quick 3);
                          0 = time everything in this process, once, no intervals (debugging)
  --codec <ids>           only these codecs (comma-separated or repeated)
  --payload <names>       these payloads instead of the default set ("all" = every payload)
  --data <file|dir>       time your own bytes instead of the default payloads (repeat for
                          more): a file is one payload of one item, a folder one payload
                          of many items (each file under it, e.g. gossip captures), named
                          by its file or folder name; with --sweep, one path to cut the
                          sizes from
  --op <ids>              only these ops: compress, uncompress, compress-into,
                          uncompress-into, alloc-uint8array, alloc-buffer,
                          gossip-inbound, gossip-transform, compress-async,
                          uncompress-async, ssz_snappy-encode, ssz_snappy-decode; opt-in:
                          ssz_snappy-read-7b, ssz_snappy-read-64k (a response read off
                          a stream of 1-7-byte or 64 KiB chunks); reqresp: every
                          framed implementation's reqresp-encode:<impl> and
                          reqresp-read:<impl> (reqresp-read-1b:<impl> by name)
                          (default: all; the ssz_snappy ops only on req/resp payloads,
                          the alloc and gossip ones only on gossip payloads, unless
                          named here)
  --reference <id>        codec the relative figures divide by (default napi, ts with
                          --runtime browser; cpp = C++ libsnappy without bindings);
                          timed even when --codec leaves it out
  --clock <wall|cpu>      time sync ops by wall clock (default) or process CPU time
                          (steadier on a loaded machine; async ops stay on wall time)
  --runtime <name>        time in node26 (default: the newest Node LTS line), node24,
                          node22 (tools/node-lines), node (the Node running the bench),
                          bun, deno (the pinned devDependencies) or browser (headless
                          Chromium); the gate stays in this Node. Other runtimes than
                          node26 write to apps/bench/results/<name> (partial/<name> when
                          filtered); --sweep and --soak take the Node ones
  --out <dir>             where to write reports (default apps/bench/results; a filtered,
                          quick or --forks 0 run writes to apps/bench/results/partial)
  --format <list>         report files to write: json,md,svg (default all three)
  --compare <file.json>   each case against an earlier report: slower / faster / no
                          significant change (Mann–Whitney U over forks,
                          Benjamini–Hochberg at a 5 % false-discovery rate)
  --threshold <percent>   noise threshold of --compare: a detected change smaller than
                          this is "within noise" (default ${DEFAULT_THRESHOLD_PERCENT})
  --fail-on-regression    exit 1 when --compare finds a significant slowdown
  --slow-down <id=pct>    self-test of the statistics: codec <id> busy-waits pct % of
                          each timed batch's time extra (e.g. ts=20); compare against a
                          normal run
  --pin                   run each fork's processes on one CPU, the forks taking the CPUs
                          in turn (Linux, taskset): codecs compared within a fork share a
                          CPU's speed; async ops then share that CPU with their threads
  --sweep                 instead of the payloads: compress and uncompress on sizes 64 B
                          to 4 MiB (×4 steps) of block and sidecar bytes; writes
                          sweep.{json,md,svg} with the size where pure-JS/wasm and native
                          codecs cross (--codec, --op, --forks, --clock, --quick apply)
  --sizes <bytes>         the sweep's sizes instead (comma-separated, e.g. 3072,6144;
                          a run with --sizes writes to apps/bench/results/partial)
  --soak                  instead: each codec in a fresh process under sustained gossip and
                          a 50 MiB blob, RSS and GC pauses; writes soak.{json,md}
  --soak-seconds <s>      length of the soak's gossip scenario (default 20, quick 3)
  --soak-rounds <n>       rounds of the soak's 50 MiB blob (default 20, quick 5)
  --calibrate             instead: @snappykit/auto's thresholds for this machine (ts and
                          napi on 1 KiB to 1 MiB of both streams, 5 quick forks, under a
                          minute on 2 cores); writes thresholds.json, which
                          createCodec({ thresholds }) takes as it is
  --merge <a.json> <b.json> ...
                          instead of timing: earlier runs (from other machines or
                          runtimes) side by side in one report, merge.{json,md,svg}: per
                          run the times and ratios, each codec's rank, and whether the runs
                          agree on the order (only --out and --format apply)
  --render <report.json>  instead of timing: a saved bench, sweep or soak report rendered again
                          by today's renderers, its files written beside it under its own
                          name (e.g. after a chart changes; only --out and --format apply)
  --list                  print codecs (and why any failed to load), payloads and ops, then exit
  -h, --help              this text

Exit codes: 0 done, 1 regression (with --fail-on-regression), 2 bad flags,
3 cross-compatibility gate failed or another error.`;

const split = (values: string[] | undefined) =>
  values === undefined
    ? undefined
    : values
        .flatMap((v) => v.split(","))
        .map((v) => v.trim())
        .filter((v) => v !== "");

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
 * The arguments after the npm habit's separator: `pnpm bench -- --list` hands the bench
 * `-- --list`, which would otherwise end its flags before they start.
 */
export const withoutSeparator = (argv: readonly string[]): readonly string[] =>
  argv[0] === "--" ? argv.slice(1) : argv;

/**
 * Parse `argv` (without node and the script; a leading `--` is dropped).
 * @throws UsageError for an unknown flag, a missing value or a bad format/threshold.
 */
export function parseCliArgs(args: readonly string[]): CliOptions {
  const argv = withoutSeparator(args);
  let values: ReturnType<typeof parse>["values"];
  let positionals: string[];
  try {
    ({ values, positionals } = parse(argv));
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const flag = /^Unknown option '(--?[^']+)'/.exec(message)?.[1];
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) {
      const flags = Object.keys(OPTIONS).map((o) => `--${o}`);
      throw new UsageError(`unknown flag ${flag}${meant(flag, flags)}; known: ${flags.join(", ")}`);
    }
    throw new UsageError(message.replace(/\. To specify .*$/s, "."));
  }
  const merge = parseMerge(values, positionals);
  if (values.render !== undefined) {
    const other = Object.keys(values).find((k) => !["render", "out", "format"].includes(k));
    if (other) throw new UsageError(`--${other} does not apply to --render (only --out, --format)`);
  }
  // Checked against the formats table when the run starts (render/formats.ts).
  const formats = split(values.format);
  const threshold =
    values.threshold === undefined ? DEFAULT_THRESHOLD_PERCENT : Number(values.threshold);
  if (!Number.isFinite(threshold) || threshold < 0) {
    throw new UsageError(
      `--threshold must be a non-negative number of percent, got "${values.threshold}"`,
    );
  }
  const clock = values.clock ?? "wall";
  if (clock !== "wall" && clock !== "cpu") {
    throw new UsageError(`unknown --clock "${clock}"; valid: wall, cpu`);
  }
  // --forks 0 times in this process: this Node, whatever the default runtime.
  const runtime = values.runtime ?? (values.forks === "0" ? "node" : DEFAULT_RUNTIME);
  if (!(RUNTIMES as readonly string[]).includes(runtime)) {
    throw new UsageError(`unknown --runtime "${runtime}"; valid: ${RUNTIMES.join(", ")}`);
  }
  if (runtime === "browser" && clock === "cpu") {
    throw new UsageError("--clock cpu needs process CPU time, which a browser page has not");
  }
  if (runtime !== "node" && values.forks === "0") {
    throw new UsageError(
      "--forks 0 times in this Node process; it cannot use another --runtime (--runtime node)",
    );
  }
  const nodeOnly = values.sweep
    ? "sweep"
    : values.soak
      ? "soak"
      : values.calibrate
        ? "calibrate"
        : undefined;
  if (nodeOnly && !NODE_RUNTIMES.includes(runtime as RuntimeName)) {
    throw new UsageError(`--${nodeOnly} runs in Node: --runtime ${NODE_RUNTIMES.join(", ")}`);
  }
  let forks: number | undefined;
  if (values.forks !== undefined) {
    forks = Number(values.forks);
    if (!Number.isInteger(forks) || forks < 0 || forks > 50) {
      throw new UsageError(`--forks must be a whole number from 0 to 50, got "${values.forks}"`);
    }
  }
  const slowdowns = (split(values["slow-down"]) ?? []).map((s) => {
    const m = /^([^=]+)=(\d+(?:\.\d+)?)$/.exec(s);
    if (!m || Number(m[2]) <= 0) {
      throw new UsageError(`--slow-down takes <codec>=<percent>, e.g. ts=20; got "${s}"`);
    }
    return { codec: m[1]!, percent: Number(m[2]) };
  });
  if (values["fail-on-regression"] && values.compare === undefined) {
    throw new UsageError("--fail-on-regression needs --compare <baseline.json>");
  }
  for (const [flag, list] of [
    ["--codec", values.codec],
    ["--payload", values.payload],
    ["--op", values.op],
  ] as const) {
    if (list !== undefined && split(list)!.length === 0)
      throw new UsageError(`${flag} needs a value`);
  }
  const { mode, soakSeconds, soakRounds } = parseModes(values);
  const sizes = split(values.sizes)?.map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1 || n > 64 << 20) {
      throw new UsageError(`--sizes takes byte counts from 1 to ${64 << 20}, got "${s}"`);
    }
    return n;
  });
  if (sizes && mode !== "sweep") throw new UsageError("--sizes needs --sweep");
  if (sizes?.length === 0) throw new UsageError("--sizes needs a value");
  const codecs = split(values.codec);
  const payloads = split(values.payload);
  // Paths may hold commas: one path per --data.
  const data = values.data;
  if (data?.some((d) => d.trim() === "")) throw new UsageError("--data needs a path");
  if (data && mode === "soak") throw new UsageError("--data does not apply to --soak");
  if (data && mode === "sweep" && data.length > 1) {
    throw new UsageError(
      "--sweep --data takes one file or folder: the sweep cuts its sizes from it",
    );
  }
  const ops = split(values.op);
  return {
    help: values.help === true,
    list: values.list === true,
    quick: values.quick === true,
    ...(codecs && { codecs }),
    ...(payloads && { payloads }),
    ...(data && { data }),
    ...(ops && { ops }),
    ...(values.out !== undefined && { out: values.out }),
    ...(formats && { formats }),
    ...(values.compare !== undefined && { compare: values.compare }),
    thresholdPercent: threshold,
    failOnRegression: values["fail-on-regression"] === true,
    ...(values.reference !== undefined && { reference: values.reference }),
    clock,
    runtime: runtime as RuntimeName,
    defaultRuntime: values.runtime === undefined,
    ...(forks !== undefined && { forks }),
    pin: values.pin === true,
    slowdowns,
    mode,
    ...(sizes && { sizes: [...new Set(sizes)].sort((a, b) => a - b) }),
    ...(soakSeconds !== undefined && { soakSeconds }),
    ...(soakRounds !== undefined && { soakRounds }),
    ...(merge && { mode: "merge" as const, merge }),
    ...(values.render !== undefined && { mode: "render" as const, render: values.render }),
  };
}

/**
 * `--merge a.json b.json …`: the files (the first after the flag, the rest as arguments);
 * only `--out` and `--format` go with it.
 * @throws UsageError for an argument without `--merge`, fewer than two files, or another flag.
 */
function parseMerge(
  values: ReturnType<typeof parse>["values"],
  positionals: readonly string[],
): string[] | undefined {
  if (values.merge === undefined) {
    if (positionals.length > 0) {
      throw new UsageError(`unexpected argument "${positionals[0]}" (only --merge takes files)`);
    }
    return undefined;
  }
  const files = [...values.merge, ...positionals];
  if (files.length < 2) throw new UsageError("--merge needs two or more bench.json files");
  const other = Object.keys(values).find((k) => !["merge", "out", "format"].includes(k));
  if (other) throw new UsageError(`--${other} does not apply to --merge (only --out, --format)`);
  return files;
}

/** `--sweep` / `--soak` and the flags that make no sense with them. */
function parseModes(values: ReturnType<typeof parse>["values"]): {
  mode: ModeName;
  soakSeconds?: number;
  soakRounds?: number;
} {
  if ([values.sweep, values.soak, values.calibrate].filter(Boolean).length > 1) {
    throw new UsageError("--sweep, --soak and --calibrate are separate runs");
  }
  const mode = values.sweep
    ? "sweep"
    : values.soak
      ? "soak"
      : values.calibrate
        ? "calibrate"
        : "bench";
  if (mode !== "bench") {
    const clash = (
      [
        ["--payload", values.payload],
        ["--compare", values.compare],
        ["--slow-down", values["slow-down"]],
        ["--reference", values.reference],
        ...(mode === "calibrate"
          ? [
              ["--codec", values.codec],
              ["--op", values.op],
              ["--sizes", values.sizes],
              ["--data", values.data],
            ]
          : []),
        ...(mode === "soak"
          ? [
              ["--op", values.op],
              ["--forks", values.forks],
              ["--clock", values.clock],
              ["--pin", values.pin],
            ]
          : []),
      ] as const
    ).find(([, v]) => v !== undefined);
    if (clash) throw new UsageError(`${clash[0]} does not apply to --${mode}`);
  }
  const soakNumber = (flag: "soak-seconds" | "soak-rounds", max: number, whole: boolean) => {
    const raw = values[flag];
    if (raw === undefined) return undefined;
    if (mode !== "soak") throw new UsageError(`--${flag} needs --soak`);
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 1 || n > max || (whole && !Number.isInteger(n))) {
      throw new UsageError(
        `--${flag} must be a ${whole ? "whole number" : "number"} from 1 to ${max}, got "${raw}"`,
      );
    }
    return n;
  };
  const soakSeconds = soakNumber("soak-seconds", 3600, false);
  const soakRounds = soakNumber("soak-rounds", 1000, true);
  return {
    mode,
    ...(soakSeconds !== undefined && { soakSeconds }),
    ...(soakRounds !== undefined && { soakRounds }),
  };
}

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  list: { type: "boolean" },
  quick: { type: "boolean" },
  codec: { type: "string", multiple: true },
  payload: { type: "string", multiple: true },
  data: { type: "string", multiple: true },
  op: { type: "string", multiple: true },
  out: { type: "string" },
  format: { type: "string", multiple: true },
  compare: { type: "string" },
  threshold: { type: "string" },
  "fail-on-regression": { type: "boolean" },
  reference: { type: "string" },
  clock: { type: "string" },
  runtime: { type: "string" },
  forks: { type: "string" },
  "slow-down": { type: "string", multiple: true },
  pin: { type: "boolean" },
  sweep: { type: "boolean" },
  sizes: { type: "string", multiple: true },
  soak: { type: "boolean" },
  calibrate: { type: "boolean" },
  "soak-seconds": { type: "string" },
  "soak-rounds": { type: "string" },
  merge: { type: "string", multiple: true },
  render: { type: "string" },
} as const;

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    // Only --merge takes them (its files); parseMerge refuses any other.
    allowPositionals: true,
    options: OPTIONS,
  });
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

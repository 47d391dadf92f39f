#!/usr/bin/env node
// `pnpm fuzz`: run the safety fuzz, print the matrix, write safety.json + safety.md, and
// exit non-zero when an adapter misses the targets (raw rows are the comparison).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { provideFfiLibrary } from "@snappykit/workspace/ffi-library";
import { formatDuration } from "@snappykit/workspace/format";
import { renderAsyncMarkdown, runAsyncFuzz } from "./async/run.js";
import { renderEncoderMarkdown, runEncoderFuzz } from "./encoders/run.js";
import { runFuzz } from "./fuzz.js";
import { distill } from "./guided/engine.js";
import { type GuidedOptions, runGuided } from "./guided/run.js";
import { GUIDED_TARGETS } from "./guided/targets.js";
import { SET_NAMES, type SetName } from "./inputs.js";
import { renderSafetyMarkdown } from "./report.js";
import type { OnProgress } from "./runner.js";

const HELP = `Usage: pnpm fuzz [options]   (or: node apps/fuzz/dist/cli.js [options])

Decompress crafted, random (1-128 bytes) and mutated inputs with every snappykit adapter
and every raw backend, each call in a child process under a watchdog, and report a
safety matrix. Exits 1 when an adapter row misses the targets.

Options:
  --n <count>       random and mutated inputs per set (default 10000)
  --raw-n <count>   inputs per set for raw rows, at most --n (default: --n; raw
                    libraries allocate GBs and hang, so at 10000 they take ~25 min)
  --codec <id>      only this adapter (repeatable, or comma-separated)
  --set <name>      only this set: crafted, random, mutated (repeatable)
  --raw / --no-raw  also fuzz each raw backend (default --raw)
  --framed-n <count>  mutated inputs per framed req/resp implementation (default 500:
                    @chainsafe/snappy-stream hangs on about a third, 3 s each)
  --no-framed       leave the framed req/resp implementations out
  --seed <n>        seed of the random and mutated sets (default 1)
  --out <dir>       where to write safety.json and safety.md (default apps/fuzz/results)
  --quick           small run: --n 200 --raw-n 50 --framed-n 50
  --help            this text

Coverage-guided fuzzing (instead of the matrix):
  --guided          run the guided targets: ${GUIDED_TARGETS.map((t) => t.name).join(", ")}
  --target <name>   only this guided target (repeatable, or comma-separated)
  --seconds <n>     seconds per guided target (default 60)
  --jobs <n>        guided targets run at once (default 1)
  --corpus <dir>    committed starting corpus, <dir>/<target>/ (default apps/fuzz/corpus)
  --out <dir>       new corpus entries, findings, reports: <dir>/guided/<target>/
  --distill         instead of fuzzing: keep only the inputs of <out>/guided/<target>/corpus
                    and the committed corpus that add coverage to the seeds, and write them
                    over the committed corpus (what to commit after a long run)

Encoder fuzz (instead of the matrix):
  --encoders        compress boundary-sized, long-run, repeat-distance, mixed and stitched
                    fixture inputs with every adapter, variant and raw library; the reference
                    and the codec's own decoder judge each stream. Writes encoders.json/.md
                    to --out. With --quick: 4 sizes instead of 18 (no 4 MiB inputs).
                    --codec, --no-raw and --seed apply.

Async under concurrency (instead of the matrix):
  --async           every adapter and variant with compressAsync/uncompressAsync: waves of
                    calls all in flight at once, mixed sizes and operations, some hostile;
                    every result checked. Writes async.json/.md to --out.
  --calls <n>       calls per adapter (default 30000; --quick: 2000)
  --wave <n>        calls in flight per wave (default 10000; --quick: 500)
`;

// @snappykit/ffi (where this Node has node:ffi) opens tools/libsnappy's build, in the
// children too.
provideFfiLibrary();

/** parseArgs options of one type, by name. */
function kinds<const T extends "string" | "boolean", const K extends string>(
  type: T,
  names: readonly K[],
) {
  return Object.fromEntries(names.map((name) => [name, { type }])) as Record<K, { type: T }>;
}

function list(values: string[] | undefined): string[] | undefined {
  return values?.flatMap((v) => v.split(",")).filter((v) => v.length > 0);
}

// Loading the WASI adapter here (to build inputs) makes Node print its experimental-WASI
// warning; it says nothing about the run, so only that one is dropped.
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  if (!/WASI is an experimental feature/.test(warning.message)) {
    process.stderr.write(`${warning.name}: ${warning.message}\n`);
  }
});

/**
 * Progress on stderr: a live line 4× a second on a terminal, else a line when a row or cell
 * is done (for CI logs). `clear()` wipes the live line before the report prints.
 */
function progress(): { onProgress: OnProgress; clear(): void } {
  const tty = process.stderr.isTTY;
  const started = performance.now();
  let last = 0;
  return {
    onProgress(label, done, total, runDone, runTotal) {
      const now = performance.now();
      const final = done === total;
      if (!tty ? !final : now - last < 250 && !final) return;
      last = now;
      const ms = now - started;
      const eta = runDone > 0 ? formatDuration((ms / runDone) * (runTotal - runDone)) : "?";
      const line = `${label.padEnd(40)} ${String(done).padStart(6)}/${total}  elapsed ${formatDuration(ms)}  ETA ${eta}`;
      process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
    },
    clear: () => tty && process.stderr.write("\r\x1b[K"),
  };
}

/**
 * Write `<out>/<name>.json` and `.md`, print the Markdown, then `problems` on stderr; the exit
 * code is 1 when there is any.
 */
function writeReport(
  out: string,
  [name, report, markdown]: [string, object, string],
  problems: string[],
  note = "",
): number {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(out, `${name}.md`), `${markdown}\n`);
  process.stdout.write(
    `${markdown}\n\nWrote ${join(out, `${name}.json`)} and ${name}.md.${note}\n`,
  );
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  return problems.length > 0 ? 1 : 0;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    // `pnpm fuzz -- --quick` forwards the "--" itself; it is not an end-of-options marker here.
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      ...kinds("string", ["n", "raw-n", "framed-n", "seed", "out", "seconds", "jobs", "corpus"]),
      ...kinds("string", ["calls", "wave"]),
      ...kinds("boolean", ["raw", "no-raw", "no-framed", "quick", "help", "guided", "distill"]),
      ...kinds("boolean", ["encoders", "async"]),
      codec: { type: "string", multiple: true },
      set: { type: "string", multiple: true },
      target: { type: "string", multiple: true },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const out = resolve(values.out ?? join(here, "..", "results"));
  const corpusDir = resolve(values.corpus ?? join(here, "..", "corpus"));
  const quick = values.quick === true;
  /** A whole-number option, or its default (`[full, quick]` for one that --quick shortens). */
  const count = (name: keyof typeof values, fallback: number | [number, number]) => {
    const value = values[name] as string | undefined;
    if (value === undefined) return Array.isArray(fallback) ? fallback[quick ? 1 : 0] : fallback;
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
    return n;
  };
  const seed = count("seed", 1);
  const codecs = list(values.codec);
  const targets = list(values.target);
  if (values.guided && values.distill) return distillCorpus(targets, corpusDir, out);
  if (values.guided) {
    const seconds = count("seconds", 60);
    return guided({
      targets,
      seconds,
      jobs: count("jobs", 1),
      seed,
      corpusDir,
      out: join(out, "guided"),
    });
  }
  const { onProgress, clear } = progress();
  if (values.async) {
    const report = await runAsyncFuzz({
      calls: count("calls", [30_000, 2000]),
      wave: count("wave", [10_000, 500]),
      seed,
      codecs,
      onProgress,
    });
    clear();
    return writeReport(
      out,
      ["async", report, renderAsyncMarkdown(report)],
      report.rows.flatMap((r) =>
        r.failed ||
        (r.result &&
          r.result.wrongResults + r.result.misattributedErrors + r.result.nonSnappyErrors > 0)
          ? [`${r.id}: ${r.failed ?? "wrong results or errors (see the report)"}`]
          : [],
      ),
    );
  }
  if (values.encoders) {
    const report = await runEncoderFuzz({
      seed,
      quick,
      codecs,
      raw: !values["no-raw"],
      onProgress,
    });
    clear();
    return writeReport(
      out,
      ["encoders", report, renderEncoderMarkdown(report)],
      [
        ...report.rows
          .filter((r) => r.target === "adapter" && r.counts.ok !== r.inputs)
          .map((r) => `${r.id}: ${r.inputs - r.counts.ok} input(s) did not round-trip`),
        ...report.failed.map((f) => `not loaded: ${f.id} (${f.target}): ${f.reason}`),
      ],
    );
  }
  const sets = list(values.set);
  const badSet = sets?.find((s) => !SET_NAMES.includes(s as SetName));
  if (badSet) throw new Error(`unknown --set ${badSet} (crafted, random, mutated)`);
  const n = count("n", [10_000, 200]);
  const report = await runFuzz({
    n,
    rawN: count("raw-n", [n, 50]),
    codecs,
    sets: sets as SetName[] | undefined,
    raw: !values["no-raw"],
    seed,
    framed: !values["no-framed"],
    framedN: count("framed-n", [500, 50]),
    onProgress,
  });
  clear();
  // The bench embeds safety.json's `markdown` under its own "Safety on hostile input".
  report.markdown = renderSafetyMarkdown(report, { omitHeading: true });
  for (const f of report.failed)
    process.stderr.write(`not loaded: ${f.id} (${f.target}): ${f.reason}\n`);
  return writeReport(
    out,
    ["safety", report, renderSafetyMarkdown(report)],
    report.rows
      .filter((r) => r.target === "adapter" && r.missed.length > 0)
      .map((r) => `${r.id} misses: ${r.missed.join(", ")}`),
    ` Took ${formatDuration(report.durationMs)}.`,
  );
}

/** `--guided --distill`: fold each target's new inputs that add coverage into the corpus. */
async function distillCorpus(targets: string[] | undefined, corpusDir: string, out: string) {
  for (const target of GUIDED_TARGETS) {
    if (targets && !targets.includes(target.name)) continue;
    const into = join(corpusDir, target.name);
    const found = join(out, "guided", target.name);
    const result = await distill(target, [into, join(found, "corpus")], into);
    const listing = join(found, "unreached.txt");
    mkdirSync(found, { recursive: true });
    writeFileSync(listing, `${result.unreached.join("\n")}\n`);
    process.stdout.write(
      `${target.name}: kept ${result.kept} of ${result.read} inputs in ${into}; seeds + corpus reach ${result.reached} of ${result.known} known blocks (unreached: ${listing})\n`,
    );
  }
  return 0;
}

/** `--guided`: run the targets, a progress line per target every 10 s, a summary at the end. */
async function guided(options: Omit<GuidedOptions, "onProgress" | "onFinding">): Promise<number> {
  const total = options.seconds * 1000;
  const lastPrint = new Map<string, number>();
  const reports = await runGuided({
    ...options,
    onProgress: (target, elapsed, s) => {
      if (elapsed - (lastPrint.get(target) ?? -Infinity) < 10_000) return;
      lastPrint.set(target, elapsed);
      const rate = Math.round(s.execs / (elapsed / 1000));
      process.stderr.write(
        `${target.padEnd(14)} ${formatDuration(elapsed)}/${formatDuration(total)}  ETA ${formatDuration(total - elapsed)}  execs ${s.execs} (${rate}/s)  corpus ${s.corpus}  blocks ${s.blocksReached}/${s.blocksKnown}  findings ${s.findings}\n`,
      );
    },
    onFinding: (target, f) =>
      process.stderr.write(
        `${target}: FINDING ${f.kind}: ${f.message}\n  input ${f.hex} (${f.file})\n`,
      ),
  });
  for (const r of reports) {
    process.stdout.write(
      `${r.target}: ${r.seconds} s, ${r.execs} execs (${r.execsPerSecond}/s), corpus ${r.corpus}, blocks reached ${r.blocksReached} of ${r.blocksKnown} known, ${r.findings.length} finding(s)\n`,
    );
  }
  process.stdout.write(`Reports, corpus and findings under ${options.out}.\n`);
  return reports.some((r) => r.findings.length > 0) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`fuzz: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);

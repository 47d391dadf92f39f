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
import { type Progress, runFuzz } from "./fuzz.js";
import { distill } from "./guided/engine.js";
import { type GuidedReport, runGuided } from "./guided/run.js";
import { GUIDED_TARGETS } from "./guided/targets.js";
import { SET_NAMES, type SetName } from "./inputs.js";
import { renderSafetyMarkdown } from "./report.js";

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

function list(values: string[] | undefined): string[] | undefined {
  return values?.flatMap((v) => v.split(",")).filter((v) => v.length > 0);
}

function count(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
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
 * Progress on stderr: a live line 4× a second on a terminal, else a line whenever `final`
 * (one per cell or row in CI logs). `clear()` wipes the live line before the report prints.
 */
function progress() {
  const started = performance.now();
  const tty = process.stderr.isTTY;
  let last = 0;
  return {
    elapsed: () => performance.now() - started,
    line(text: (elapsed: number) => string, final: boolean, force = false) {
      const now = performance.now();
      if (!tty ? !final : now - last < 250 && !force) return;
      last = now;
      const line = text(now - started);
      process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
    },
    clear: () => tty && process.stderr.write("\r\x1b[K"),
  };
}

/** Write `<out>/<name>.json` and `.md`, and print the Markdown. */
function writeReport(out: string, name: string, report: object, markdown: string, note = "") {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(out, `${name}.md`), `${markdown}\n`);
  process.stdout.write(
    `${markdown}\n\nWrote ${join(out, `${name}.json`)} and ${name}.md.${note}\n`,
  );
}

const eta = (elapsed: number, done: number, total: number) =>
  done > 0 ? formatDuration((elapsed / done) * (total - done)) : "?";

async function main(): Promise<number> {
  const { values } = parseArgs({
    // `pnpm fuzz -- --quick` forwards the "--" itself; it is not an end-of-options marker here.
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      n: { type: "string" },
      "raw-n": { type: "string" },
      codec: { type: "string", multiple: true },
      set: { type: "string", multiple: true },
      raw: { type: "boolean" },
      "no-raw": { type: "boolean" },
      "framed-n": { type: "string" },
      "no-framed": { type: "boolean" },
      seed: { type: "string" },
      out: { type: "string" },
      quick: { type: "boolean" },
      help: { type: "boolean" },
      guided: { type: "boolean" },
      target: { type: "string", multiple: true },
      seconds: { type: "string" },
      jobs: { type: "string" },
      corpus: { type: "string" },
      encoders: { type: "boolean" },
      distill: { type: "boolean" },
      async: { type: "boolean" },
      calls: { type: "string" },
      wave: { type: "string" },
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
  const seed = count(values.seed, "seed") ?? 1;
  const codecs = list(values.codec);
  if (values.guided && values.distill) {
    for (const target of GUIDED_TARGETS) {
      if (values.target && !list(values.target)?.includes(target.name)) continue;
      const into = join(corpusDir, target.name);
      const found = join(out, "guided", target.name);
      const { read, kept, known, reached, unreached } = await distill(
        target,
        [into, join(found, "corpus")],
        into,
      );
      const listing = join(found, "unreached.txt");
      mkdirSync(dirname(listing), { recursive: true });
      writeFileSync(listing, `${unreached.join("\n")}\n`);
      process.stdout.write(
        `${target.name}: kept ${kept} of ${read} inputs in ${into}; seeds + corpus reach ${reached} of ${known} known blocks (unreached: ${listing})\n`,
      );
    }
    return 0;
  }
  if (values.guided) {
    return guided({
      targets: list(values.target),
      seconds: count(values.seconds, "seconds") ?? 60,
      jobs: count(values.jobs, "jobs") ?? 1,
      seed,
      corpusDir,
      out: join(out, "guided"),
    });
  }
  const p = progress();
  if (values.async) {
    const report = await runAsyncFuzz({
      calls: count(values.calls, "calls") ?? (values.quick ? 2000 : 30_000),
      wave: count(values.wave, "wave") ?? (values.quick ? 500 : 10_000),
      seed,
      codecs,
      // Adapters without async APIs take no time, so the ETA is rough early on.
      onRow: (id, i, total) =>
        process.stderr.write(
          `async ${id} (${i + 1}/${total})  elapsed ${formatDuration(p.elapsed())}  ETA ${eta(p.elapsed(), i, total)}\n`,
        ),
    });
    writeReport(out, "async", report, renderAsyncMarkdown(report));
    const bad = report.rows.some(
      (r) =>
        r.failed ||
        (r.result &&
          r.result.wrongResults + r.result.misattributedErrors + r.result.nonSnappyErrors > 0),
    );
    return bad ? 1 : 0;
  }
  if (values.encoders) {
    const report = await runEncoderFuzz({
      seed,
      quick: values.quick ?? false,
      codecs,
      raw: !values["no-raw"],
      onProgress: (row, done, total, runDone, runTotal) =>
        p.line(
          (ms) =>
            `encoders ${row.padEnd(18)} ${String(done).padStart(4)}/${total}  elapsed ${formatDuration(ms)}  ETA ${eta(ms, runDone, runTotal)}`,
          done === total,
        ),
    });
    p.clear();
    writeReport(out, "encoders", report, renderEncoderMarkdown(report));
    const bad = report.rows.filter((r) => r.target === "adapter" && r.counts.ok !== r.inputs);
    for (const r of bad)
      process.stderr.write(`${r.id}: ${r.inputs - r.counts.ok} input(s) did not round-trip\n`);
    return bad.length > 0 || report.failed.length > 0 ? 1 : 0;
  }
  const sets = list(values.set);
  const badSet = sets?.find((s) => !SET_NAMES.includes(s as SetName));
  if (badSet) throw new Error(`unknown --set ${badSet} (crafted, random, mutated)`);
  const n = count(values.n, "n") ?? (values.quick ? 200 : 10_000);
  let lastCell = "";
  const report = await runFuzz({
    n,
    rawN: count(values["raw-n"], "raw-n") ?? (values.quick ? 50 : n),
    codecs,
    sets: sets as SetName[] | undefined,
    raw: values["no-raw"] ? false : (values.raw ?? true),
    seed,
    framed: !values["no-framed"],
    framedN: count(values["framed-n"], "framed-n") ?? (values.quick ? 50 : 500),
    onProgress: (q: Progress) => {
      const cell = `${q.set}/${q.codec}`;
      const end = q.done === q.total;
      p.line(
        (ms) =>
          `${q.set.padEnd(7)} ${q.codec.padEnd(18)} ${String(q.done).padStart(6)}/${q.total}  elapsed ${formatDuration(ms)}  ETA ${eta(ms, q.runDone, q.runTotal)}`,
        end,
        end && cell !== lastCell,
      );
      lastCell = cell;
    },
  });
  p.clear();
  // The bench embeds safety.json's `markdown` under its own "Safety on hostile input".
  report.markdown = renderSafetyMarkdown(report, { omitHeading: true });
  writeReport(
    out,
    "safety",
    report,
    renderSafetyMarkdown(report),
    ` Took ${formatDuration(report.durationMs)}.`,
  );
  for (const f of report.failed)
    process.stderr.write(`not loaded: ${f.id} (${f.target}): ${f.reason}\n`);
  const missed = report.rows.filter((r) => r.target === "adapter" && r.missed.length > 0);
  for (const row of missed) process.stderr.write(`${row.id} misses: ${row.missed.join(", ")}\n`);
  return missed.length > 0 ? 1 : 0;
}

/** `--guided`: run the targets, a progress line per target every 10 s, a summary at the end. */
async function guided(
  options: Omit<Parameters<typeof runGuided>[0], "onProgress">,
): Promise<number> {
  const total = options.seconds * 1000;
  const lastPrint = new Map<string, number>();
  const reports: GuidedReport[] = await runGuided({
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

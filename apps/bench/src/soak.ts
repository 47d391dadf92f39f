// `pnpm bench --soak`: memory under sustained load. Every codec runs each scenario in a
// fresh process of its own (soak-worker.ts), one after another:
// - gossip: a realistic mix of gossip messages, each decoded (the gate reference's bytes)
//   and encoded, as fast as possible for --soak-seconds;
// - big blob: napi-rs/snappy #323 — compress and uncompress a 50 MiB payload, 20 rounds.
// The child reports RSS every 100 ms and every GC pause; this file turns the series into
// figures, applies the growth rule and writes soak.{json,md}.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { linearRegression, quantile } from "simple-statistics";
import type { CliOptions } from "./args.js";
import { MARK, type TargetSpec, writeInputs } from "./fork.js";
import { commandLine, nodeEnvironment, runLine } from "./modes.js";
import { loadPayloadSource, makePayload } from "./payloads.js";
import { prepareInputs } from "./prepare.js";
import { clearProgress, type Io, progressPrinter } from "./progress.js";
import { formatBytes, formatDuration } from "./report/format.js";
import { markdownTable } from "./report/markdown.js";
import type { Environment } from "./report/schema.js";
import type { Table } from "./report/tables.js";
import { textTable } from "./report/terminal.js";
import { outputDir, writeFiles } from "./report/write.js";
import { chooseCodecs } from "./select.js";
import { SAMPLE_MS, type SoakSeries, type SoakTask } from "./soak-worker.js";
import { medianOf } from "./stats.js";
import { repeatTo, STREAM_SOURCES, streamParts } from "./streams.js";

/** Bumped when soak.json's shape changes incompatibly. */
export const SOAK_SCHEMA = 1;

/** Settings of a full and a quick soak. */
export const FULL_SOAK = { seconds: 20, rounds: 20 } as const;
export const QUICK_SOAK = { seconds: 3, rounds: 5 } as const;

/** The big blob: 50 MiB, as in napi-rs/snappy #323. */
export const BLOB_BYTES = 50 * 1024 * 1024;

/**
 * One cycle of the gossip mix, messages per 100: a node subscribed to many subnets sees
 * mostly attestations and sync committee messages, an aggregate every few, a data column
 * now and then and a block once per slot.
 */
export const GOSSIP_MIX: readonly (readonly [string, number])[] = [
  ["single-attestation", 64],
  ["sync-committee-message", 20],
  ["aggregate-and-proof", 10],
  ["contribution-and-proof", 3],
  ["data-column-sidecar", 2],
  ["beacon-block", 1],
];

/** The mix as a message order: each kind spread evenly over the cycle (deterministic). */
export function gossipOrder(mix: readonly (readonly [string, number])[] = GOSSIP_MIX): string[] {
  const total = mix.reduce((n, [, k]) => n + k, 0);
  return mix
    .flatMap(([name, k]) =>
      Array.from({ length: k }, (_, i) => ({ name, at: ((i + 0.5) * total) / k })),
    )
    .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name))
    .map((m) => m.name);
}

/** The first part of a run, excluded from the slope: heap sizing, JIT, first GCs. */
export const WARMUP_FRACTION = 0.2;

/**
 * The growth rule: a run's RSS "keeps growing" when, over the second half of the run, its
 * least-squares slope is above {@link GROWTH_SLOPE} MiB/min AND its rise — the median RSS of
 * the last third of the run after warm-up minus that of the first third — is above
 * {@link GROWTH_BYTES}. The slope alone flags a heap still sizing itself; medians of thirds,
 * not single samples, because a 50 MiB round leaves ~130 MiB of garbage that a late
 * sample may or may not still hold (with end-minus-warm-up samples, reruns flagged a
 * different native codec each time).
 */
export const GROWTH_SLOPE = 10;
export const GROWTH_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;

/** Least-squares slope of RSS over [fromMs, toMs], MiB per minute (NaN with < 3 samples). */
export function rssSlope(
  rss: readonly (readonly [number, number])[],
  fromMs: number,
  toMs = Number.POSITIVE_INFINITY,
): number {
  const pts = rss.filter(([t]) => t >= fromMs && t <= toMs).map(([t, b]) => [t / 60_000, b / MIB]);
  if (pts.length < 3) return Number.NaN;
  return linearRegression(pts).m;
}

/** Whether a run's RSS keeps growing by the rule above. */
export function keepsGrowing(secondHalfSlope: number, rise: number): boolean {
  return secondHalfSlope > GROWTH_SLOPE && rise > GROWTH_BYTES;
}

/**
 * Fewer samples after warm-up than this (the quick blob's 5 rounds) are not judged: rise
 * NaN (null in soak.json), `grows` false, "n/a" in the table. Three per third.
 */
export const MIN_TREND_SAMPLES = 9;

/**
 * Median RSS of the last third of the samples from `fromMs` on minus that of the first third
 * (bytes; thirds by count, so a run whose rounds are uneven in time still has both).
 */
export function rssRise(rss: readonly (readonly [number, number])[], fromMs: number): number {
  const after = rss.filter(([t]) => t >= fromMs).map(([, b]) => b);
  if (after.length < MIN_TREND_SAMPLES) return Number.NaN;
  const k = Math.ceil(after.length / 3);
  return medianOf(after.slice(-k)) - medianOf(after.slice(0, k));
}

/** One codec × scenario in soak.json. RSS in bytes, slopes in MiB/min, GC pauses in ms. */
export interface SoakRow {
  readonly codec: string;
  readonly runtime: string;
  readonly scenario: SoakTask["scenario"];
  /** gossip: messages (one uncompress + one compress each); big blob: rounds. */
  readonly ops: number;
  readonly opsPerSec: number;
  readonly durationMs: number;
  /** RSS at the start of the load (target loaded, inputs read). */
  readonly rssStart: number;
  /** RSS at the end of the warm-up ({@link WARMUP_FRACTION} of the run). */
  readonly rssWarm: number;
  /** Median RSS of the last third after warm-up minus that of the first third (the rule's). */
  readonly rssRise: number;
  /** Highest RSS: the larger of the samples and the process's getrusage peak under load. */
  readonly rssPeak: number;
  readonly rssEnd: number;
  /** After two forced full GCs at the end: what the process could give back. */
  readonly rssAfterGc: number;
  /** Least-squares slope after the warm-up (big blob: of the RSS at round ends). */
  readonly slope: number;
  /** Least-squares slope over the second half (the growth rule's). */
  readonly slopeSecondHalf: number;
  readonly gcCount: number;
  readonly gcP99: number;
  readonly gcMax: number;
  /** big blob: median and slowest round (compress + uncompress of 50 MiB), ms. */
  readonly roundMedianMs?: number;
  readonly roundMaxMs?: number;
  /** big blob: RSS after each round (bytes), the series its slope is fitted to. */
  readonly rssRounds?: readonly number[];
  readonly grows: boolean;
}

/** Figures of one run from its raw series. */
export function soakRow(
  codec: string,
  runtime: string,
  scenario: SoakTask["scenario"],
  s: SoakSeries,
): SoakRow {
  // The big blob's trend is read at round ends (its 100 ms samples saw-tooth by ~130 MiB).
  const trend = s.roundRss.length > 0 ? s.roundRss : s.rss;
  const rssAt = (ms: number) => trend.find(([t]) => t >= ms)?.[1] ?? trend[trend.length - 1]![1];
  const warmMs = s.elapsedMs * WARMUP_FRACTION;
  const rssWarm = rssAt(warmMs);
  const rssEnd = s.rss[s.rss.length - 1]![1];
  const slopeSecondHalf = rssSlope(trend, s.elapsedMs / 2);
  const rise = rssRise(trend, warmMs);
  const sortedRounds = [...s.roundMs].sort((a, b) => a - b);
  return {
    codec,
    runtime,
    scenario,
    ops: s.ops,
    opsPerSec: (s.ops / s.elapsedMs) * 1000,
    durationMs: s.elapsedMs,
    rssStart: s.rss[0]![1],
    rssWarm,
    // The getrusage peak counts only if it was reached under load, not while loading.
    rssPeak: Math.max(s.maxRss > s.maxRssBefore ? s.maxRss : 0, ...s.rss.map(([, b]) => b)),
    rssEnd,
    rssAfterGc: s.rssAfterGc,
    slope: rssSlope(trend, warmMs),
    slopeSecondHalf,
    gcCount: s.gcPauses.length,
    gcP99: s.gcPauses.length > 0 ? quantile([...s.gcPauses], 0.99) : 0,
    gcMax: s.gcPauses.length > 0 ? Math.max(...s.gcPauses) : 0,
    ...(sortedRounds.length > 0 && {
      roundMedianMs: quantile(sortedRounds, 0.5),
      roundMaxMs: sortedRounds[sortedRounds.length - 1]!,
      rssRounds: s.roundRss.map(([, b]) => b),
    }),
    rssRise: rise,
    grows: keepsGrowing(slopeSecondHalf, rise),
  };
}

/** soak.json. */
export interface SoakReport {
  readonly schema: number;
  readonly command: string;
  readonly mode: "full" | "quick";
  readonly durationMs: number;
  readonly environment: Environment;
  readonly gateReference: string;
  readonly settings: {
    readonly gossipSeconds: number;
    readonly blobRounds: number;
    readonly blobBytes: number;
    readonly blobData: string;
    readonly gossipMix: readonly (readonly [string, number])[];
    readonly sampleMs: number;
    readonly warmupFraction: number;
    readonly rule: string;
  };
  readonly rows: readonly SoakRow[];
  readonly failures: readonly {
    readonly codec: string;
    readonly scenario: string;
    readonly reason: string;
  }[];
}

/** The growth rule in words, for reports. */
export const RULE_TEXT =
  `grows = least-squares RSS slope over the second half of the run > ${GROWTH_SLOPE} MiB/min ` +
  `and rise > ${GROWTH_BYTES / MIB} MiB, the rise being the median RSS of the last third of ` +
  `the run after warm-up (the first ${WARMUP_FRACTION * 100} %) minus that of its first third; ` +
  `runs with fewer than ${MIN_TREND_SAMPLES} samples after warm-up are not judged (n/a)`;

const CHILD_SCRIPT = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".ts") ? "../dist/soak-child.js" : "./soak-child.js",
    import.meta.url,
  ),
);

/** Run one task in a fresh process; rejects on a crash, an error or the timeout. */
export function soakInChild(task: SoakTask, timeoutMs: number): Promise<SoakSeries> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", CHILD_SCRIPT, JSON.stringify(task)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let reply: { ok: true; value: SoakSeries } | { ok: false; error: string } | undefined;
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith(MARK)) reply = JSON.parse(line.slice(MARK.length));
      else process.stderr.write(`[${task.spec.codec}] ${line}\n`);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (reply?.ok) resolvePromise(reply.value);
      else if (reply) reject(new Error(reply.error));
      else reject(new Error(signal ? `killed by ${signal}` : `exited with code ${code}`));
    });
  });
}

/** Run the soak; resolves to the exit code. */
export async function runSoak(
  opts: CliOptions,
  io: Io,
  log: (line: string) => void,
): Promise<number> {
  const started = performance.now();
  const settings = opts.quick ? QUICK_SOAK : FULL_SOAK;
  const seconds = opts.soakSeconds ?? settings.seconds;
  const rounds = opts.soakRounds ?? settings.rounds;
  const { selected, targets, gateReference } = await chooseCodecs(opts, log);

  // Inputs, gated like the bench's: every codec round-trips every message and the blob
  // with the reference, and uncompress decodes the reference's bytes.
  const source = loadPayloadSource();
  const messages = gossipOrder().map((name) => {
    const p = source.all.find((x) => x.name === name);
    if (!p) throw new Error(`fixture payload "${name}" is missing`);
    return p.items[0]!;
  });
  const blob = repeatTo(streamParts(source, STREAM_SOURCES.blocks), BLOB_BYTES);
  const payloads = [
    makePayload("gossip-mix", "one cycle of the gossip mix", "gossip", messages),
    makePayload("big-blob", "50 MiB of serialized blocks", "synthetic", [blob]),
  ];
  log(`gate: ${targets.length} codecs × gossip mix and 50 MiB blob against ${gateReference.codec}`);
  const gate = await prepareInputs(gateReference, targets, payloads);
  const [gossip, big] = gate.prepared;
  const inputsDir = mkdtempSync(join(tmpdir(), "snappykit-soak-"));
  const rows: SoakRow[] = [];
  const failures: SoakReport["failures"][number][] = [];
  try {
    // One folder per scenario, rows in SOAK_ROWS order: the items, then the reference's bytes.
    const dirs = { gossip: join(inputsDir, "gossip"), "big-blob": join(inputsDir, "big-blob") };
    for (const [scenario, p] of [
      ["gossip", gossip!],
      ["big-blob", big!],
    ] as const) {
      mkdirSync(dirs[scenario]);
      writeInputs(dirs[scenario], [
        { payload: p.payload.name, op: "compress", outputBytes: 0, items: p.payload.items },
        { payload: p.payload.name, op: "uncompress", outputBytes: 0, items: p.referenceCompressed },
      ]);
    }
    const runs = selected.flatMap((a) =>
      (["gossip", "big-blob"] as const).map((scenario) => ({ a, scenario })),
    );
    const progress = progressPrinter(io.stderr);
    const blobTimes: number[] = [];
    let index = 0;
    // ETA: gossip runs take their seconds; a big-blob run as long as the ones before it.
    const eta = () => {
      const left = runs.slice(index);
      const blobGuess =
        blobTimes.length > 0 ? blobTimes.reduce((x, y) => x + y, 0) / blobTimes.length : 8000;
      return left.reduce(
        (ms, r) => ms + (r.scenario === "gossip" ? seconds * 1000 + 500 : blobGuess),
        0,
      );
    };
    for (const { a, scenario } of runs) {
      index++;
      const runStart = performance.now();
      const show = () =>
        progress({
          fork: 0,
          forks: 1,
          index,
          total: runs.length,
          label: `${a.id} ${scenario}`,
          elapsedMs: performance.now() - started,
          etaMs: Math.max(0, eta() - (performance.now() - runStart)),
        });
      show();
      // A live line ticks each second on a terminal; a log gets one line per run.
      const ticker = io.stderr.isTTY ? setInterval(show, 1000) : undefined;
      const spec: TargetSpec = {
        codec: a.id,
        impl: "adapter",
        entry: a.entry,
        ...(a.variantOf && { variant: true }),
      };
      try {
        const series = await soakInChild(
          { spec, inputsDir: dirs[scenario], scenario, seconds, rounds },
          // Generous: a slow JS codec takes ~2 s a round on this VM when it is busy.
          60_000 + (scenario === "gossip" ? seconds * 1000 : rounds * 10_000),
        );
        rows.push(soakRow(a.id, a.codec.runtime, scenario, series));
      } catch (error) {
        failures.push({ codec: a.id, scenario, reason: (error as Error).message });
        log(`${a.id} ${scenario} failed: ${(error as Error).message}`);
      } finally {
        clearInterval(ticker);
      }
      if (scenario === "big-blob") blobTimes.push(performance.now() - runStart);
    }
  } finally {
    rmSync(inputsDir, { recursive: true, force: true });
  }
  clearProgress(io.stderr);

  const report: SoakReport = {
    schema: SOAK_SCHEMA,
    command: commandLine(),
    mode: opts.quick ? "quick" : "full",
    durationMs: performance.now() - started,
    environment: nodeEnvironment(selected),
    gateReference: gate.reference,
    settings: {
      gossipSeconds: seconds,
      blobRounds: rounds,
      blobBytes: BLOB_BYTES,
      blobData: `the serialized blocks of ${STREAM_SOURCES.blocks.join(", ")} laid end to end, repeated to 50 MiB`,
      gossipMix: GOSSIP_MIX,
      sampleMs: SAMPLE_MS,
      warmupFraction: WARMUP_FRACTION,
      rule: RULE_TEXT,
    },
    rows,
    failures,
  };
  const written = writeFiles(
    outputDir(opts.out, !opts.quick && !opts.codecs && !opts.soakSeconds && !opts.soakRounds),
    [
      ["soak.json", `${JSON.stringify(report, null, 2)}\n`] as const,
      ["soak.md", renderSoakMarkdown(report)] as const,
    ].filter(([name]) => opts.formats.some((f) => name.endsWith(`.${f}`))),
  );
  io.stdout.write(`${textTable(soakTable(report), io.stdout.isTTY === true)}\n`);
  const growing = rows.filter((r) => r.grows);
  io.stdout.write(
    growing.length === 0
      ? "no codec's RSS keeps growing (rule: see soak.md)\n"
      : `RSS keeps growing: ${growing.map((r) => `${r.codec} (${r.scenario})`).join(", ")}\n`,
  );
  log(`wrote ${written.join(", ")} in ${formatDuration(performance.now() - started)}`);
  return failures.length > 0 ? 3 : 0;
}

const mib = (b: number) => (b > 0 ? `${(b / MIB).toFixed(0)} MiB` : "—");
const rate = (x: number) =>
  Number.isFinite(x) ? `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}` : "n/a";

/** One row per codec × scenario. */
export function soakTable(report: SoakReport): Table {
  return {
    headers: [
      "codec",
      "scenario",
      "ops/s",
      "round p50 / max",
      "RSS start",
      "warm",
      "peak",
      "end",
      "after GC",
      "rise",
      "slope MiB/min (2nd half)",
      "GC p99 / max",
      "grows",
    ],
    align: ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "l"],
    rows: report.rows.map((r) => [
      { text: r.codec },
      { text: r.scenario },
      {
        text:
          r.opsPerSec >= 100
            ? Math.round(r.opsPerSec).toLocaleString("en-US")
            : r.opsPerSec.toFixed(2),
      },
      {
        text:
          r.roundMedianMs === undefined
            ? "—"
            : `${r.roundMedianMs.toFixed(0)} / ${r.roundMaxMs!.toFixed(0)} ms`,
      },
      { text: mib(r.rssStart) },
      { text: mib(r.rssWarm) },
      { text: mib(r.rssPeak) },
      { text: mib(r.rssEnd) },
      { text: mib(r.rssAfterGc) },
      { text: Number.isFinite(r.rssRise) ? `${rate(r.rssRise / MIB)} MiB` : "n/a" },
      { text: `${rate(r.slope)} (${rate(r.slopeSecondHalf)})` },
      { text: `${r.gcP99.toFixed(1)} / ${r.gcMax.toFixed(1)} ms` },
      { text: r.grows ? "YES" : Number.isFinite(r.rssRise) ? "no" : "n/a", strong: r.grows },
    ]),
  };
}

/** soak.md. */
export function renderSoakMarkdown(report: SoakReport): string {
  const e = report.environment;
  const s = report.settings;
  const growing = report.rows.filter((r) => r.grows);
  return `${[
    "# Soak: memory under sustained load",
    "",
    runLine(report.command, e, `${report.mode} mode`, report.durationMs),
    "",
    `Every codec runs each scenario in a fresh process; RSS is sampled every ${s.sampleMs} ms, GC pauses come from \`perf_hooks\` ("gc" entries).`,
    "",
    `- **gossip** (${s.gossipSeconds} s): per 100 messages ${s.gossipMix.map(([n, k]) => `${k} ${n}`).join(", ")}; each message is decoded (${report.gateReference}'s compressed bytes) and encoded; ops/s = messages per second. The loop yields to the event loop about every millisecond, as a node's message handlers do.`,
    `- **big-blob** (napi-rs/snappy #323): compress and uncompress ${formatBytes(s.blobBytes)} (${s.blobData}), ${s.blobRounds} rounds, an event-loop turn between rounds; ops/s = rounds per second.`,
    `- Peak RSS is the larger of the samples and the process's getrusage peak under load (not while loading); "warm" is RSS at the end of the warm-up; "after GC" is RSS after two forced full GCs at the end (what the process could give back).`,
    `- Slopes are least-squares fits of RSS over time after the warm-up (and over the second half); for the big blob over the RSS after each round. Rule: ${s.rule}.`,
    "",
    markdownTable(soakTable(report)),
    "",
    growing.length === 0
      ? "No codec's RSS keeps growing by the rule in either scenario."
      : `RSS keeps growing: ${growing.map((r) => `**${r.codec}** (${r.scenario})`).join(", ")}.`,
    ...(report.failures.length > 0
      ? [
          "",
          "Failed runs:",
          ...report.failures.map((f) => `- ${f.codec} ${f.scenario}: ${f.reason}`),
        ]
      : []),
  ].join("\n")}\n`;
}

// Builds the input sets and the reference, then runs every (set, codec) cell and every framed
// implementation's in isolated children and assembles the report. The CLI and the quick test
// both call runFuzz.

import { validStreams } from "@snappykit/conformance/cases";
import { loadPayloads } from "@snappykit/fixtures";
import {
  declaredUnloadable,
  discoverAdapters,
  type LoadedAdapter,
  loadAdapters,
} from "@snappykit/workspace";
import { machine, measuredTrees } from "@snappykit/workspace/environment";
import { newestLineFor, nodeLineBinary } from "@snappykit/workspace/node-lines";
import { adapterTargets } from "@snappykit/workspace/targets";
import { craftedFramed, expectedFramed, mutatedFramed } from "./framed.js";
import {
  craftedSet,
  type InputSet,
  legalFormSeeds,
  mutatedSet,
  poolPlaintexts,
  randomSet,
  SET_NAMES,
  type SetName,
} from "./inputs.js";
import { exactPeaks } from "./memory.js";
import {
  type CallResult,
  type CellStats,
  emptyStats,
  HANG_MS,
  mergeStats,
  missedTargets,
  RSS_LIMIT_BYTES,
  record,
  SLOW_MS,
  type Target,
} from "./outcome.js";
import {
  REFERENCE_DESCRIPTION,
  type ReferenceCheck,
  referenceFor,
  referenceOutcome,
} from "./reference.js";
import type { FailedRow, SafetyReport, SafetyRow } from "./report.js";
import { type OnProgress, runJob } from "./runner.js";
import type { Subject } from "./serve.js";
import type { CellItem, CellLoad } from "./worker.js";

/** Options for {@link runFuzz}. */
export interface FuzzOptions {
  /** Random and mutated inputs per set for adapter rows. @default 10000 */
  n?: number;
  /** Random and mutated inputs per set for raw rows (capped at `n`). @default n */
  rawN?: number;
  /** Only these adapter ids. @default every adapter in the workspace */
  codecs?: readonly string[];
  /** Only these sets. @default all three */
  sets?: readonly SetName[];
  /** Also fuzz each adapter's raw backend. @default true */
  raw?: boolean;
  /** Seed of the random and mutated sets. @default 1 */
  seed?: number;
  /** Also fuzz the framed (req/resp) implementations (framed.ts). @default true */
  framed?: boolean;
  /** Mutated inputs for each framed implementation. @default n */
  framedN?: number;
  /** Kill a child whose RSS passes this. @default 6 GiB */
  rssCapBytes?: number;
  /** Called after every input. */
  onProgress?: OnProgress;
}

/** Adapters whose encoder builds the mutated set's valid streams, in order of preference. */
const POOL_COMPRESSORS = ["libsnappy", "ts", "napi"];
/** Largest plaintext of a fixture item used for the pool: keeps mutated inputs small. */
const POOL_MAX_STREAM = 4096;

/** Legal-form streams in the pool: about a quarter of it, beside the compressed fixtures. */
const POOL_LEGAL_FORMS = 96;

/**
 * The codec rows of a run: every adapter of `codecs` (default all), its variants and (with
 * `raw`) its raw library. Adapters declared not to load in this Node (ffi before Node 26) run
 * in the newest Node line that loads them, as `<id>-<line>` (the bench's name for the same
 * codec); without one, they are left out, said so. Bun and Deno cannot be the children: the
 * protocol is Node's IPC with its advanced (V8) serialization.
 */
export async function subjects(options: {
  codecs?: readonly string[] | undefined;
  raw: boolean;
}): Promise<{ subjects: Subject[]; failed: FailedRow[]; all: LoadedAdapter[] }> {
  const entries = discoverAdapters();
  const unknown = options.codecs?.filter((id) => !entries.some((e) => e.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown codec(s): ${unknown.join(", ")}`);
  // Loaded here too (not only in the children): to learn each adapter's variants, to report
  // the ones that do not load, and to build inputs (with the same compressor whatever
  // --codec picks: ffi alone does not load in Node 20).
  const every = await loadAdapters(entries);
  const chosen = (a: { id: string }) => !options.codecs || options.codecs.includes(a.id);
  const notLoaded = every.failed.filter(chosen);
  const elsewhere = notLoaded.filter(declaredUnloadable);
  const list: Subject[] = adapterTargets(every.loaded.filter(chosen), options).map((t) => ({
    id: t.id,
    entry: t.entry,
    target: t.impl,
    ...(t.impl === "adapter" && t.variant !== undefined && { variant: t.variant }),
  }));
  for (const f of elsewhere) {
    const line = newestLineFor(f.metadata.cannotLoad);
    if (!line) {
      process.stderr.write(`left out: ${f.id}: ${declaredUnloadable(f)}\n`);
      continue;
    }
    const from = { id: `${f.id}-${line}`, execPath: nodeLineBinary(line) };
    list.push({ ...from, entry: f.entry, target: "adapter" });
    if (options.raw) list.push({ ...from, entry: f.rawEntry, target: "raw" });
  }
  const failed = notLoaded
    .filter((f) => !elsewhere.includes(f))
    .map((f) => ({ id: f.id, target: "adapter" as const, reason: f.reason }));
  return { subjects: list, failed, all: every.loaded };
}

/**
 * The valid streams the mutated set is built from: prefixes of fixture items compressed by
 * the first of POOL_COMPRESSORS that loads, whatever --codec picks.
 */
function buildPool(loaded: readonly LoadedAdapter[]) {
  const found = POOL_COMPRESSORS.map((id) => loaded.find((a) => a.id === id)).find(Boolean);
  const compressor = (found ?? loaded[0])?.codec;
  if (!compressor)
    throw new Error("no adapter loads, so there is nothing to fuzz (run the build first)");
  const payloads = loadPayloads();
  const items = payloads.flatMap((p) => p.items.slice(0, 16));
  const streams = [
    ...poolPlaintexts(items).map((p) => compressor.compress(p)),
    // The suite's hand-built streams add element forms encoders rarely write (copy-4, long
    // literal lengths), so mutations reach those decoder paths too; and the legal-form
    // generator's: every length and copy form, which no encoder writes.
    ...validStreams.map((v) => v.bytes),
    ...legalFormSeeds(POOL_LEGAL_FORMS, POOL_MAX_STREAM).map((c) => c.stream),
  ].filter((s) => s.length <= POOL_MAX_STREAM);
  const source = `@snappykit/fixtures (${payloads.length} payloads, prefixes of up to 16 items each) and ${POOL_LEGAL_FORMS} @snappykit/conformance legal-form streams`;
  return {
    compressor,
    streams,
    info: {
      source,
      compressor: compressor.library,
      streams: streams.length,
      maxStreamBytes: Math.max(...streams.map((s) => s.length)),
    },
  };
}

/** One row × one input set, ready to run: what its children load, and its inputs. */
export type Cell = CellLoad & {
  /** The Node the children run in, when not this one (a Node line). */
  execPath?: string;
  items: CellItem[];
};

/** The result of {@link runCell}: the tallies, or why the backend would not load. */
export type CellResult =
  | { ok: true; library: string; stats: CellStats }
  | { ok: false; reason: string };

/**
 * Run every input of `cell` in isolated children (runner.ts) and tally the outcomes: a call
 * that hangs past HANG_MS is a hang; one that kills its child, or passes `rssCapBytes`
 * (default 6 GiB), a crash.
 */
export async function runCell(
  cell: Cell,
  options: { rssCapBytes?: number; onProgress?: (done: number) => void } = {},
): Promise<CellResult> {
  const { items, execPath, ...load } = cell;
  const stats = emptyStats();
  const tally = (index: number, result: CallResult) => {
    record(stats, index, items[index]!.input, result);
    options.onProgress?.(index + 1);
  };
  const result = await runJob<CallResult>({
    worker: "worker.js",
    load,
    items,
    ...(execPath !== undefined && { execPath }),
    hangMs: HANG_MS,
    rssCapBytes: options.rssCapBytes ?? 6 * 2 ** 30,
    inflatedBytes: RSS_LIMIT_BYTES,
    onResult: tally,
    onLost: (index, { kind, rssGrowth, detail }) =>
      tally(index, {
        outcome: kind === "hang" ? "hang" : "crash",
        ms: kind === "hang" ? HANG_MS : 0,
        rssGrowth,
        detail,
      }),
  });
  if (!result.ok) return result;
  stats.restarts = result.restarts;
  return { ok: true, library: result.library, stats };
}

/**
 * Fuzz every adapter (and, unless `raw: false`, its raw backend) with the crafted, random
 * and mutated sets, then every framed implementation with crafted and mutated `ssz_snappy`
 * encodings, each call isolated in a child process, and return the safety report.
 */
export async function runFuzz(options: FuzzOptions = {}): Promise<SafetyReport> {
  const started = performance.now();
  const n = options.n ?? 10_000;
  const rawN = Math.min(options.rawN ?? n, n);
  const seed = options.seed ?? 1;
  const withRaw = options.raw ?? true;
  const rssCapBytes = options.rssCapBytes ?? 6 * 2 ** 30;
  const run = await subjects({ codecs: options.codecs, raw: withRaw });
  const failed = run.failed;
  const pool = buildPool(run.all);

  const sets = (options.sets ?? SET_NAMES).map((name) =>
    name === "crafted"
      ? craftedSet()
      : name === "random"
        ? randomSet(n, seed)
        : mutatedSet(pool.streams, n, seed + 1),
  );
  const check: ReferenceCheck = { inputs: 0, disagreements: [] };
  const expected = new Map(sets.map((s) => [s.name, referenceFor(s, check)]));
  const sizeOf = (set: InputSet, target: Target) =>
    set.name === "crafted" || target === "adapter"
      ? set.inputs.length
      : Math.min(rawN, set.inputs.length);
  // Every cell, codecs set by set, then the framed implementations over ts (ours and
  // Lodestar's pattern need a codec; the libraries bring their own).
  const cells: { id: string; set: SetName; cell: Cell }[] = [];
  for (const set of sets) {
    for (const { id, ...subject } of run.subjects) {
      const size = sizeOf(set, subject.target);
      const want = expected.get(set.name)!;
      const items = set.inputs.slice(0, size).map((input, i): CellItem => {
        const maxLength = set.maxLength[i];
        if (maxLength === undefined) return { input, expected: want[i]! };
        // Raw backends have no maxLength option, so they are judged on the stream alone: a
        // crafted case that is valid but over its maxLength must decode there.
        if (subject.target === "raw") return { input, expected: referenceOutcome(input) };
        return { input, expected: want[i]!, maxLength };
      });
      cells.push({ id, set: set.name, cell: { ...subject, items } });
    }
  }
  const ts = discoverAdapters().find((e) => e.id === "ts");
  let framedN: SafetyReport["framedN"];
  if (options.framed !== false && ts) {
    const { FRAMED } = await import("@snappykit/bench/framed");
    const framed = {
      crafted: craftedFramed(pool.compressor).map((c) => c.bytes),
      mutated: mutatedFramed(pool.compressor, options.framedN ?? n, seed + 2),
    };
    framedN = { crafted: framed.crafted.length, mutated: framed.mutated.length };
    for (const impl of FRAMED) {
      for (const [set, inputs] of Object.entries(framed) as [SetName, Uint8Array[]][]) {
        const cell: Cell = {
          entry: ts.entry,
          target: "framed",
          framed: impl.id,
          items: inputs.map((input) => ({
            input,
            expected: expectedFramed(input, impl.overCodec),
          })),
        };
        cells.push({ id: impl.id, set, cell });
      }
    }
  }

  const runTotal = cells.reduce((sum, c) => sum + c.cell.items.length, 0);
  let runDone = 0;
  const rows = new Map<string, SafetyRow>();
  for (const { id, set, cell } of cells) {
    const { target } = cell;
    const before = runDone;
    runDone += cell.items.length;
    if (failed.some((f) => f.id === id && f.target === target)) continue;
    const label = `${set.padEnd(7)} ${target === "adapter" ? id : `${id} (${target})`}`;
    const result = await runCell(cell, {
      rssCapBytes,
      onProgress: (done) =>
        options.onProgress?.(label, done, cell.items.length, before + done, runTotal),
    });
    if (!result.ok) {
      failed.push({ id, target, reason: result.reason });
      continue;
    }
    const key = `${id}/${target}`;
    const row: SafetyRow = rows.get(key) ?? {
      id,
      target,
      library: result.library,
      sets: {},
      total: emptyStats(),
      missed: [],
    };
    row.sets[set] = result.stats;
    rows.set(key, row);
  }

  // Codec rows by id; framed rows in the bench's order.
  const rank = { adapter: 0, raw: 1, framed: 2 };
  const ordered = [...rows.values()].sort(
    (a, b) =>
      rank[a.target] - rank[b.target] || (a.target === "framed" ? 0 : a.id.localeCompare(b.id)),
  );
  for (const row of ordered) {
    row.total = mergeStats(Object.values(row.sets));
    row.missed = missedTargets(row.total, row.target);
  }
  const count = (target: Target) =>
    Object.fromEntries(
      SET_NAMES.map((name) => {
        const set = sets.find((s) => s.name === name);
        return [name, set && (withRaw || target === "adapter") ? sizeOf(set, target) : 0];
      }),
    ) as Record<SetName, number>;
  const codecIds = ordered.filter((r) => r.target !== "framed").map((r) => r.id);
  return {
    schemaVersion: 1,
    date: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    n: count("adapter"),
    rawN: count("raw"),
    seed,
    environment: machine(),
    measured: measuredTrees("@snappykit/fuzz", [...new Set(codecIds)]),
    ...(framedN && { framedN }),
    limits: { slowMs: SLOW_MS, hangMs: HANG_MS, rssLimitBytes: RSS_LIMIT_BYTES, rssCapBytes },
    exactRssPeaks: exactPeaks,
    reference: REFERENCE_DESCRIPTION,
    referenceCheck: check,
    mutatedPool: pool.info,
    rows: ordered,
    failed,
  };
}

// Builds the input sets and the reference, then runs every (set, codec) cell in isolated
// children and assembles the report. The CLI and the quick test both call runFuzz.

import { validStreams } from "@snappykit/conformance/cases";
import type { SnappyCodec } from "@snappykit/core";
import { loadPayloads } from "@snappykit/fixtures";
import {
  declaredUnloadable,
  discoverAdapters,
  type FailedAdapter,
  type LoadedAdapter,
  loadAdapters,
} from "@snappykit/workspace";
import { machine, measuredTrees } from "@snappykit/workspace/environment";
import { newestLineFor, nodeLineBinary } from "@snappykit/workspace/node-lines";
import { adapterTargets } from "@snappykit/workspace/targets";
import { runFramed } from "./framed.js";
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
import { MemoryProbe } from "./memory.js";
import {
  type CellStats,
  type Expected,
  HANG_MS,
  mergeStats,
  missedTargets,
  RSS_LIMIT_BYTES,
  SLOW_MS,
} from "./outcome.js";
import type { Target } from "./protocol.js";
import {
  REFERENCE_DESCRIPTION,
  type ReferenceCheck,
  referenceFor,
  referenceOutcome,
} from "./reference.js";
import type { FailedRow, SafetyReport, SafetyRow } from "./report.js";
import { runCell } from "./runner.js";

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
  onProgress?: (progress: Progress) => void;
}

/** Where a run is, for progress lines. */
export interface Progress {
  set: SetName;
  codec: string;
  done: number;
  total: number;
  /** Calls done and planned over the whole run. */
  runDone: number;
  runTotal: number;
}

/** Adapters whose encoder builds the mutated set's valid streams, in order of preference. */
const POOL_COMPRESSORS = ["libsnappy", "ts", "napi"];
/** Largest plaintext of a fixture item used for the pool: keeps mutated inputs small. */
const POOL_MAX_STREAM = 4096;

/** Legal-form streams in the pool: about a quarter of it, beside the compressed fixtures. */
const POOL_LEGAL_FORMS = 96;

/** Plaintexts for the pool: the first items of every fixture payload. */
function poolSource(): { source: string; items: Uint8Array[] } {
  const payloads = loadPayloads();
  return {
    source: `@snappykit/fixtures (${payloads.length} payloads, prefixes of up to 16 items each) and ${POOL_LEGAL_FORMS} @snappykit/conformance legal-form streams`,
    items: payloads.flatMap((p) => p.items.slice(0, 16)),
  };
}

/** One row to fuzz: an adapter's codec (or one of its variants), or its raw backend. */
export interface Subject {
  id: string;
  entry: string;
  /** A codec's row: its guarded codec or its raw library (framed rows are framed.ts's). */
  target: Exclude<Target, "framed">;
  variant?: string;
  /** The Node its children run in, when not this one. */
  execPath?: string;
}

/**
 * Adapters declared not to load in this Node (ffi before Node 26) run in the newest Node line
 * that loads them, as `<id>-<line>` (the bench's name for the same codec); without one, they
 * are left out, said so. Bun and Deno cannot be the children: the protocol is Node's IPC with
 * its advanced (V8) serialization.
 */
export function inOtherNodes(
  failed: readonly FailedAdapter[],
  withRaw: boolean,
): (Subject & { target: "adapter" | "raw" })[] {
  return failed.filter(declaredUnloadable).flatMap((f) => {
    const line = newestLineFor(f.metadata.cannotLoad);
    if (!line) {
      process.stderr.write(`left out: ${f.id}: ${declaredUnloadable(f)}\n`);
      return [];
    }
    const from = { id: `${f.id}-${line}`, execPath: nodeLineBinary(line) };
    return [
      { ...from, entry: f.entry, target: "adapter" as const },
      ...(withRaw ? [{ ...from, entry: f.rawEntry, target: "raw" as const }] : []),
    ];
  });
}

function pickCompressor(loaded: readonly LoadedAdapter[]): SnappyCodec {
  for (const id of POOL_COMPRESSORS) {
    const found = loaded.find((a) => a.id === id);
    if (found) return found.codec;
  }
  if (!loaded[0])
    throw new Error("no adapter loads, so there is nothing to fuzz (run the build first)");
  return loaded[0].codec;
}

/** The valid streams the mutated set is built from. */
function buildPool(compressor: SnappyCodec) {
  const { source, items } = poolSource();
  const streams = poolPlaintexts(items).map((p) => compressor.compress(p));
  // The suite's hand-built streams add element forms encoders rarely write (copy-4, long
  // literal lengths), so mutations reach those decoder paths too.
  for (const v of validStreams) if (v.bytes.length <= POOL_MAX_STREAM) streams.push(v.bytes);
  // And the legal-form generator's: every length and copy form, which no encoder writes.
  streams.push(...legalFormSeeds(POOL_LEGAL_FORMS, POOL_MAX_STREAM).map((c) => c.stream));
  const small = streams.filter((s) => s.length <= POOL_MAX_STREAM);
  return {
    compressor,
    streams: small,
    info: {
      source,
      compressor: compressor.library,
      streams: small.length,
      maxStreamBytes: Math.max(...small.map((s) => s.length)),
    },
  };
}

function slice(set: InputSet, expected: Expected[], n: number) {
  return {
    inputs: set.inputs.slice(0, n),
    expected: expected.slice(0, n),
    maxLength: set.maxLength.slice(0, n),
  };
}

/**
 * Fuzz every adapter (and, unless `raw: false`, its raw backend) with the crafted, random
 * and mutated sets, each call isolated in a child process, and return the safety report.
 */
export async function runFuzz(options: FuzzOptions = {}): Promise<SafetyReport> {
  const started = performance.now();
  const n = options.n ?? 10_000;
  const rawN = Math.min(options.rawN ?? n, n);
  const seed = options.seed ?? 1;
  const withRaw = options.raw ?? true;
  const setNames = options.sets ?? SET_NAMES;
  const rssCapBytes = options.rssCapBytes ?? 6 * 2 ** 30;

  const entries = discoverAdapters();
  if (options.codecs) {
    const unknown = options.codecs.filter((id) => !entries.some((e) => e.id === id));
    if (unknown.length > 0) throw new Error(`unknown codec(s): ${unknown.join(", ")}`);
  }
  // Loaded here too (not only in the children): to learn each adapter's variants, to
  // report the ones that do not load, and to build the mutated set's valid streams (with
  // the same compressor whatever --codec picks: ffi alone does not load in Node 20).
  const every = await loadAdapters(entries);
  const chosen = (a: { id: string }) => !options.codecs || options.codecs.includes(a.id);
  const loaded = every.loaded.filter(chosen);
  const notLoaded = every.failed.filter(chosen);
  const pool = buildPool(pickCompressor(every.loaded));
  const subjects: Subject[] = adapterTargets(loaded, { raw: withRaw }).map((t) => ({
    id: t.id,
    entry: t.entry,
    target: t.impl,
    ...(t.impl === "adapter" && t.variant !== undefined && { variant: t.variant }),
  }));
  subjects.push(...inOtherNodes(notLoaded, withRaw));
  const failed: FailedRow[] = notLoaded
    .filter((f) => !declaredUnloadable(f))
    .map((f) => ({
      id: f.id,
      target: "adapter",
      reason: f.reason,
    }));

  const sets: InputSet[] = [];
  for (const name of setNames) {
    if (name === "crafted") sets.push(craftedSet());
    else if (name === "random") sets.push(randomSet(n, seed));
    else sets.push(mutatedSet(pool.streams, n, seed + 1));
  }
  const check: ReferenceCheck = { inputs: 0, disagreements: [] };
  const expected = new Map(sets.map((s) => [s.name, referenceFor(s, check)]));
  // Raw backends have no maxLength option, so they are judged on the stream alone: a
  // crafted case that is valid but over its maxLength must decode there.
  const expectedRaw = new Map(
    sets.map((s) => [
      s.name,
      expected
        .get(s.name)!
        .map((e, i) => (s.maxLength[i] === undefined ? e : referenceOutcome(s.inputs[i]!))),
    ]),
  );

  const sizeOf = (set: InputSet, target: Target) =>
    set.name === "crafted" || target === "adapter"
      ? set.inputs.length
      : Math.min(rawN, set.inputs.length);
  const runTotal = sets.reduce(
    (sum, set) => sum + subjects.reduce((s, subject) => s + sizeOf(set, subject.target), 0),
    0,
  );
  let runDone = 0;

  const rows = new Map<string, SafetyRow>();
  for (const set of sets) {
    for (const subject of subjects) {
      const { id, target } = subject;
      const key = `${id}/${target}`;
      const size = sizeOf(set, target);
      if (failed.some((f) => f.id === id && f.target === target)) {
        runDone += size;
        continue;
      }
      const before = runDone;
      const codecLabel = target === "raw" ? `${id} (raw)` : id;
      const cell = {
        entry: subject.entry,
        target,
        ...(subject.execPath !== undefined && { execPath: subject.execPath }),
        ...slice(set, (target === "raw" ? expectedRaw : expected).get(set.name)!, size),
      };
      const result = await runCell(
        subject.variant === undefined ? cell : { ...cell, variant: subject.variant },
        {
          rssCapBytes,
          onProgress: (done) => {
            runDone = before + done;
            options.onProgress?.({
              set: set.name,
              codec: codecLabel,
              done,
              total: size,
              runDone,
              runTotal,
            });
          },
        },
      );
      runDone = before + size;
      if (!result.ok) {
        failed.push({ id, target, reason: result.reason });
        continue;
      }
      const row = rows.get(key) ?? {
        id,
        target,
        library: result.library,
        sets: {},
        total: undefined as unknown as CellStats,
        missed: [],
      };
      row.sets[set.name] = result.stats;
      rows.set(key, row);
    }
  }

  const rank = { adapter: 0, raw: 1, framed: 2 };
  const ordered = [...rows.values()].sort((a, b) =>
    a.target === b.target ? a.id.localeCompare(b.id) : rank[a.target] - rank[b.target],
  );
  for (const row of ordered) {
    row.total = mergeStats(Object.values(row.sets));
    row.missed = missedTargets(row.total, row.target);
  }
  // The framed implementations over ts (ours and Lodestar's pattern need a codec; the
  // libraries bring their own), after the codecs.
  const ts = discoverAdapters().find((e) => e.id === "ts");
  const framed =
    options.framed !== false && ts
      ? await runFramed({
          entry: ts.entry,
          codec: pool.compressor,
          n: options.framedN ?? n,
          seed: seed + 2,
          rssCapBytes,
          onProgress: (set, id, done, total) =>
            options.onProgress?.({
              set,
              codec: `${id} (framed)`,
              done,
              total,
              runDone,
              runTotal,
            }),
        })
      : undefined;
  const count = (name: SetName, target: Target) => {
    const set = sets.find((s) => s.name === name);
    return set ? sizeOf(set, target) : 0;
  };
  return {
    schemaVersion: 1,
    date: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    n: {
      crafted: count("crafted", "adapter"),
      random: count("random", "adapter"),
      mutated: count("mutated", "adapter"),
    },
    rawN: withRaw
      ? {
          crafted: count("crafted", "raw"),
          random: count("random", "raw"),
          mutated: count("mutated", "raw"),
        }
      : { crafted: 0, random: 0, mutated: 0 },
    seed,
    environment: machine(),
    measured: measuredTrees("@snappykit/fuzz", [...new Set(ordered.map((r) => r.id))]),
    ...(framed && { framedN: framed.n }),
    limits: { slowMs: SLOW_MS, hangMs: HANG_MS, rssLimitBytes: RSS_LIMIT_BYTES, rssCapBytes },
    exactRssPeaks: new MemoryProbe().exactPeaks,
    reference: REFERENCE_DESCRIPTION,
    referenceCheck: check,
    mutatedPool: pool.info,
    rows: [...ordered, ...(framed?.rows ?? [])],
    failed: [...failed, ...(framed?.failed ?? [])],
  };
}

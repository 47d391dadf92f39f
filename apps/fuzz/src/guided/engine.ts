// The coverage-guided loop, run in a child process (worker.ts): keep every input that reaches
// a new block or a new hit-count bucket of a block, mutate corpus entries, and on a Finding
// minimize the input and save it. The current input is written to a file before each
// execution, so the parent can name the input of a hang after killing us.
import { createHash } from "node:crypto";
import {
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { prng } from "@snappykit/conformance/cases";
import { type Block, BlockCoverage } from "./coverage.js";
import { Mutator } from "./mutate.js";
import { type Execute, Finding, type GuidedTarget, preview } from "./targets.js";

export interface EngineOptions {
  target: GuidedTarget;
  seed: number;
  /** Directories of starting inputs (the committed corpus); read only. */
  corpusIn: readonly string[];
  /** Where new coverage-increasing inputs are written. */
  corpusOut: string;
  /** Where minimized findings are written. */
  findingsOut: string;
  /**
   * The file each input is written to before it runs, so the parent can name the input of
   * a hang after killing us.
   */
  current: string;
}

/** A finding, deduplicated by kind and message. */
export interface FindingRecord {
  kind: string;
  message: string;
  /** The minimized input, hex. */
  hex: string;
  file: string;
  /** Times this kind and message came up. */
  hits: number;
}

export interface EngineStats {
  execs: number;
  corpus: number;
  blocksKnown: number;
  blocksReached: number;
  features: number;
  findings: number;
}

/** What a slice of fuzzing did: the totals so far, the findings new in it, the seeds run. */
export interface Slice {
  stats: EngineStats;
  findings: FindingRecord[];
  seedInputs: number;
}

const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest("hex");

/** The inputs in `dirs` (those that exist), each directory's in name order. */
export function readCorpus(dirs: readonly string[]): Uint8Array[] {
  return dirs.flatMap((dir) =>
    existsSync(dir)
      ? readdirSync(dir)
          .sort()
          .map((name) => new Uint8Array(readFileSync(join(dir, name))))
      : [],
  );
}

/** The finding an execution raised, or `undefined`. Non-Finding throws are harness failures. */
async function check(execute: Execute, input: Uint8Array): Promise<Finding | undefined> {
  try {
    const pending = execute(input);
    if (pending) await pending;
    return undefined;
  } catch (error) {
    if (error instanceof Finding) return error;
    return new Finding(
      "harness-error",
      error instanceof Error ? (error.stack ?? error.message) : String(error),
    );
  }
}

/**
 * Shrink `input` while it still raises a Finding of the same kind: drop ever smaller runs
 * (delta debugging), then zero bytes that do not matter. Bounded to `budget` executions.
 */
export async function minimize(
  execute: Execute,
  input: Uint8Array,
  kind: string,
  budget = 4000,
): Promise<Uint8Array> {
  let best = input;
  let tries = 0;
  const stillFails = async (candidate: Uint8Array) => {
    tries++;
    return (await check(execute, candidate))?.kind === kind;
  };
  for (let size = best.length >> 1; size >= 1 && tries < budget; size >>= 1) {
    for (let at = 0; at < best.length && tries < budget; ) {
      const candidate = new Uint8Array(best.length - Math.min(size, best.length - at));
      candidate.set(best.subarray(0, at));
      candidate.set(best.subarray(at + size), at);
      if (await stillFails(candidate)) best = candidate;
      else at += size;
    }
  }
  for (let at = 0; at < best.length && tries < budget; at++) {
    if (best[at] === 0) continue;
    const candidate = best.slice();
    candidate[at] = 0;
    if (await stillFails(candidate)) best = candidate;
  }
  return best;
}

/**
 * Load the target, run the seeds and the corpus, and return a function that fuzzes on until
 * `until` (epoch ms).
 */
export async function startEngine(
  options: EngineOptions,
): Promise<(until: number) => Promise<Slice>> {
  const { target } = options;
  const current = openSync(options.current, "w");
  const execute = await target.load();
  const coverage = new BlockCoverage(target.scope);
  const next = prng(options.seed);
  const mutator = new Mutator(next, target.dictionary, target.maxLength);
  const corpus: Uint8Array[] = [];
  const findings = new Map<string, FindingRecord>();
  mkdirSync(options.corpusOut, { recursive: true });
  let execs = 0;
  let fresh: FindingRecord[] = [];

  const report = async (input: Uint8Array, finding: Finding) => {
    // Digits vary from input to input; the kind and the words say which bug it is.
    const key = `${finding.kind}: ${finding.message.replace(/\d+/g, "N")}`;
    const seen = findings.get(key);
    if (seen) {
      seen.hits++;
      return;
    }
    const small = await minimize(execute, input, finding.kind);
    coverage.reset();
    mkdirSync(options.findingsOut, { recursive: true });
    const file = join(options.findingsOut, `${finding.kind}-${sha1(small)}.bin`);
    writeFileSync(file, small);
    const again = await check(execute, small);
    coverage.reset();
    const record: FindingRecord = {
      kind: finding.kind,
      message: again?.message ?? finding.message,
      hex: preview(small),
      file,
      hits: 1,
    };
    findings.set(key, record);
    fresh.push(record);
  };

  /** Run one input; returns true when it reached new coverage. */
  const run = async (input: Uint8Array): Promise<boolean> => {
    writeSync(current, input, 0, input.length, 0);
    ftruncateSync(current, input.length);
    const finding = await check(execute, input);
    execs++;
    const { newFeatures } = coverage.collect();
    if (finding) await report(input, finding);
    return newFeatures > 0;
  };

  // Seeds are built (by compressing and framing fixture items) before coverage starts
  // counting: the encoders they run are not the target's.
  const starting = [...(await target.seeds()), ...readCorpus(options.corpusIn)];
  coverage.reset();
  for (const input of starting) {
    const small = input.length > target.maxLength ? input.subarray(0, target.maxLength) : input;
    if (await run(small)) corpus.push(small);
  }
  if (corpus.length === 0) corpus.push(new Uint8Array(0));

  return async (until) => {
    while (Date.now() < until) {
      // Favour recent finds a little: they sit at the frontier of what is covered.
      const recent = next() < 0.3 ? Math.max(0, corpus.length - 16) : 0;
      const parent = corpus[recent + Math.floor(next() * (corpus.length - recent))]!;
      const other = corpus[Math.floor(next() * corpus.length)]!;
      const input = mutator.mutate(parent, other);
      if (await run(input)) {
        corpus.push(input);
        writeFileSync(join(options.corpusOut, sha1(input)), input);
      }
    }
    const hits = [...findings.values()].reduce((sum, f) => sum + f.hits, 0);
    const stats = { execs, corpus: corpus.length, ...coverage.stats(), findings: hits };
    const slice = { stats, findings: fresh, seedInputs: starting.length };
    fresh = [];
    return slice;
  };
}

/**
 * Distill a corpus: run the target's seeds, then `dirs`' inputs from the smallest up, and keep
 * only those that reach a feature nothing before them reached (after a first pass over all of
 * them, so that every block they touch is known). Replaces `into` with them;
 * returns how many were read and kept.
 */
export async function distill(
  target: GuidedTarget,
  dirs: readonly string[],
  into: string,
): Promise<{ read: number; kept: number; known: number; reached: number; unreached: string[] }> {
  // V8 counts a call to a function inlined into optimized code in neither the function's
  // invocation count nor its blocks, so after a few hundred inputs whole functions read as
  // unreached. The replay is short: run it unoptimized, where every count is exact.
  setFlagsFromString("--no-opt");
  const execute = await target.load();
  const coverage = new BlockCoverage(target.scope);
  const runs = async (input: Uint8Array) => {
    await check(execute, input);
    return coverage.collect().newFeatures > 0;
  };
  const seeds = await target.seeds();
  const inputs = readCorpus(dirs).sort((a, b) => a.length - b.length);
  coverage.reset();
  // First pass: learn every block the inputs touch; the second counts and keeps.
  for (const input of [...seeds, ...inputs]) await runs(input);
  coverage.forgetReached();
  for (const seed of seeds) await runs(seed);
  const kept: Uint8Array[] = [];
  for (const input of inputs) if (await runs(input)) kept.push(input);
  const { blocksKnown: known, blocksReached: reached } = coverage.stats();
  const unreached = coverage.unreached().map(describeBlock);
  coverage.close();
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  for (const input of kept) writeFileSync(join(into, sha1(input)), input);
  return { read: inputs.length, kept: kept.length, known, reached, unreached };
}

const sources = new Map<string, string>();

/** `file:line: first line of the block`, for the list of blocks no input reached. */
function describeBlock(block: Block): string {
  const path = block.url.startsWith("file:") ? fileURLToPath(block.url) : block.url;
  let text = sources.get(path);
  if (text === undefined) {
    try {
      text = readFileSync(path, "utf8");
    } catch {
      text = "";
    }
    sources.set(path, text);
  }
  const line = text.slice(0, block.start).split("\n").length;
  const snippet = text.slice(block.start, block.end).split("\n")[0]!.trim().slice(0, 80);
  return `${path.replace(/.*\/(packages|apps)\//, "$1/")}:${line}: ${snippet}`;
}

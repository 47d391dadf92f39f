// Parent side of the guided fuzzer: one child process per target (up to `jobs` at once) under
// runner.ts's watchdog, which kills a child whose slice of fuzzing overruns (a hang); the
// input it was running is read from the file the engine writes, and a fresh child resumes.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runJob } from "../runner.js";
import type { EngineStats, FindingRecord, Slice } from "./engine.js";
import { GUIDED_TARGETS, type GuidedTarget, preview } from "./targets.js";

/** An execution that has not returned after this long is a hang. */
export const GUIDED_HANG_MS = 10_000;

export interface GuidedOptions {
  /** Target names. @default all */
  targets?: readonly string[];
  /** Seconds per target. */
  seconds: number;
  /** Targets run at once. @default 1 */
  jobs?: number;
  seed?: number;
  /** Committed starting corpus: `<corpusDir>/<target>/`. */
  corpusDir: string;
  /** Where each target's new corpus entries, findings and report go: `<out>/<target>/`. */
  out: string;
  onProgress?: (target: string, elapsedMs: number, stats: EngineStats) => void;
  onFinding?: (target: string, finding: FindingRecord) => void;
}

/** What a target's session did, as written to its report file. */
export type GuidedReport = Awaited<ReturnType<typeof runTarget>>;

export const ENGINE_DESCRIPTION =
  "snappykit's guided loop: V8 block coverage (node:inspector Profiler.takePreciseCoverage, callCount + detailed) of the target's dist scripts after every execution, AFL-style hit-count buckets, libFuzzer-style stacked mutations with a format dictionary, delta-debugging minimization";

async function runTarget(target: GuidedTarget, options: GuidedOptions) {
  const dir = join(options.out, target.name);
  const corpusOut = join(dir, "corpus");
  const findingsOut = join(dir, "findings");
  const current = join(dir, "current.bin");
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const startedAt = new Date().toISOString();
  // One item a second until the deadline: progress every second, and a hang loses only
  // the slice it stopped (the next child resumes on the corpus found so far).
  const now = Date.now();
  const items = Array.from(
    { length: Math.max(1, options.seconds) },
    (_, i) => now + (i + 1) * 1000,
  );
  const findings: FindingRecord[] = [];
  const found = (finding: FindingRecord) => {
    findings.push(finding);
    options.onFinding?.(target.name, finding);
  };
  let before = 0;
  let last: Slice | undefined;
  const result = await runJob<Slice>({
    worker: "guided/worker.js",
    load: {
      target: target.name,
      seed: options.seed ?? 1,
      corpusIn: [join(options.corpusDir, target.name), corpusOut],
      corpusOut,
      findingsOut,
      current,
    },
    items,
    hangMs: GUIDED_HANG_MS,
    onResult: (_, slice) => {
      last = { ...slice, stats: { ...slice.stats, execs: before + slice.stats.execs } };
      for (const finding of slice.findings) found(finding);
      options.onProgress?.(target.name, performance.now() - started, last.stats);
    },
    onLost: (_, lost) => {
      before = last?.stats.execs ?? before;
      if (lost.kind !== "hang") throw new Error(`${target.name}: ${lost.detail}`);
      const input = new Uint8Array(readFileSync(current));
      mkdirSync(findingsOut, { recursive: true });
      const file = join(findingsOut, `hang-${createHash("sha1").update(input).digest("hex")}.bin`);
      writeFileSync(file, input);
      found({
        kind: "hang",
        message: `an execution ran over ${GUIDED_HANG_MS} ms; the child was killed`,
        hex: preview(input),
        file,
        hits: 1,
      });
    },
  });
  if (!result.ok) throw new Error(`${target.name} did not load: ${result.reason}`);
  const seconds = (performance.now() - started) / 1000;
  const stats = last?.stats;
  const report = {
    target: target.name,
    description: target.description,
    engine: ENGINE_DESCRIPTION,
    startedAt,
    seconds: Math.round(seconds),
    execs: stats?.execs ?? 0,
    execsPerSecond: Math.round((stats?.execs ?? 0) / seconds),
    seedInputs: last?.seedInputs ?? 0,
    corpus: stats?.corpus ?? 0,
    blocksKnown: stats?.blocksKnown ?? 0,
    blocksReached: stats?.blocksReached ?? 0,
    features: stats?.features ?? 0,
    restarts: result.restarts,
    findings,
  };
  writeFileSync(
    join(dir, `report-${startedAt.replace(/[:.]/g, "-")}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  return report;
}

/** Run the guided targets, `jobs` at a time, each for `seconds`. */
export async function runGuided(options: GuidedOptions): Promise<GuidedReport[]> {
  const names = options.targets ?? GUIDED_TARGETS.map((t) => t.name);
  const targets = names.map((name) => {
    const t = GUIDED_TARGETS.find((g) => g.name === name);
    if (!t)
      throw new Error(
        `unknown guided target ${name} (${GUIDED_TARGETS.map((g) => g.name).join(", ")})`,
      );
    return t;
  });
  const reports: GuidedReport[] = [];
  const queue = [...targets];
  const lanes = Array.from({ length: Math.max(1, options.jobs ?? 1) }, async () => {
    for (let t = queue.shift(); t; t = queue.shift()) reports.push(await runTarget(t, options));
  });
  await Promise.all(lanes);
  return names.map((name) => reports.find((r) => r.target === name)!);
}

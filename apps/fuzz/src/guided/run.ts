// Parent side of the guided fuzzer: one worker thread per target (up to `jobs` at once), a
// watchdog that terminates a worker whose execution count stops moving (a hang), records the
// input it was running from shared memory, and restarts it on the corpus found so far.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import {
  type EngineMessage,
  type EngineStats,
  type FindingRecord,
  SHARED_HEADER,
} from "./engine.js";
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

export interface GuidedReport {
  target: string;
  description: string;
  engine: string;
  startedAt: string;
  seconds: number;
  execs: number;
  execsPerSecond: number;
  seedInputs: number;
  corpus: number;
  blocksKnown: number;
  blocksReached: number;
  features: number;
  restarts: number;
  findings: FindingRecord[];
}

export const ENGINE_DESCRIPTION =
  "snappykit's guided loop: V8 block coverage (node:inspector Profiler.takePreciseCoverage, callCount + detailed) of the target's dist scripts after every execution, AFL-style hit-count buckets, libFuzzer-style stacked mutations with a format dictionary, delta-debugging minimization";

function workerUrl(): URL {
  // Under vitest this module is the .ts source; the worker always runs compiled.
  return new URL(
    import.meta.url.endsWith(".ts") ? "../../dist/guided/worker.js" : "./worker.js",
    import.meta.url,
  );
}

async function runTarget(target: GuidedTarget, options: GuidedOptions): Promise<GuidedReport> {
  const dir = join(options.out, target.name);
  const corpusOut = join(dir, "corpus");
  const findingsOut = join(dir, "findings");
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const deadline = started + options.seconds * 1000;
  const findings: FindingRecord[] = [];
  let execsBefore = 0;
  let last: EngineStats | undefined;
  let seedInputs = 0;
  let restarts = -1;

  while (performance.now() < deadline - 500) {
    restarts++;
    const shared = new SharedArrayBuffer(SHARED_HEADER + target.maxLength);
    const counters = new Int32Array(shared, 0, 2);
    const worker = new Worker(workerUrl(), {
      workerData: {
        target: target.name,
        seconds: (deadline - performance.now()) / 1000,
        seed: (options.seed ?? 1) + restarts,
        corpusIn: [join(options.corpusDir, target.name), corpusOut],
        corpusOut,
        findingsOut,
        shared,
      },
    });
    const hang = await new Promise<boolean>((resolve, reject) => {
      let seen = -1;
      let since = performance.now();
      const watch = setInterval(() => {
        const execs = Atomics.load(counters, 0);
        if (execs !== seen) {
          seen = execs;
          since = performance.now();
        } else if (execs > 0 && performance.now() - since > GUIDED_HANG_MS) {
          clearInterval(watch);
          void worker.terminate().then(() => resolve(true));
        }
      }, 250);
      worker.on("message", (message: EngineMessage) => {
        if (message.type === "finding") {
          findings.push(message.finding);
          options.onFinding?.(target.name, message.finding);
          return;
        }
        last = { ...message.stats, execs: execsBefore + message.stats.execs };
        options.onProgress?.(target.name, performance.now() - started, last);
        if (message.type === "done") seedInputs = message.seedInputs;
      });
      worker.on("error", (error) => {
        clearInterval(watch);
        reject(error);
      });
      worker.on("exit", () => {
        clearInterval(watch);
        resolve(false);
      });
    });
    execsBefore = last?.execs ?? execsBefore;
    if (hang) {
      const input = new Uint8Array(shared, SHARED_HEADER, Atomics.load(counters, 1)).slice();
      mkdirSync(findingsOut, { recursive: true });
      const file = join(findingsOut, `hang-${createHash("sha1").update(input).digest("hex")}.bin`);
      writeFileSync(file, input);
      const finding: FindingRecord = {
        kind: "hang",
        message: `an execution ran over ${GUIDED_HANG_MS} ms; the worker was terminated`,
        hex: preview(input),
        file,
        hits: 1,
      };
      findings.push(finding);
      options.onFinding?.(target.name, finding);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const report: GuidedReport = {
    target: target.name,
    description: target.description,
    engine: ENGINE_DESCRIPTION,
    startedAt,
    seconds: Math.round(seconds),
    execs: last?.execs ?? 0,
    execsPerSecond: Math.round((last?.execs ?? 0) / seconds),
    seedInputs,
    corpus: last?.corpus ?? 0,
    blocksKnown: last?.blocksKnown ?? 0,
    blocksReached: last?.blocksReached ?? 0,
    features: last?.features ?? 0,
    restarts,
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

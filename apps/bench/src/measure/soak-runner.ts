// The soak's runner: every codec runs each scenario in a fresh process of its own
// (soak-worker.ts), one after another:
// - gossip: a realistic mix of gossip messages, each decoded (the gate reference's bytes)
//   and encoded, as fast as possible for soak --seconds;
// - big blob: napi-rs/snappy #323 — compress and uncompress a 50 MiB payload, 20 rounds.
// Each child reports RSS every 100 ms and every GC pause; summarise/trend.ts turns the
// series into figures.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { CodecTarget } from "@snappykit/workspace/targets";
import { mean, sum } from "simple-statistics";
import type { PreparedPayload, TargetSpec } from "../model/case.js";
import type { SoakReport, SoakSeries, SoakTask } from "../model/soak.js";
import { MARK, writeInputs } from "./fork.js";
import { clearProgress, type Io, progressPrinter } from "./progress.js";
import { childScript, type ForkCommand, NODE_RUNTIME } from "./runtime.js";

const CHILD_SCRIPT = childScript("soak-child.js");

/**
 * Run one task in a fresh process (of this Node, or `command`'s Node line); rejects on a
 * crash, an error or the timeout.
 */
export function soakInChild(
  task: SoakTask,
  timeoutMs: number,
  command: ForkCommand = NODE_RUNTIME.command!,
): Promise<SoakSeries> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command.file, [...command.args, CHILD_SCRIPT, JSON.stringify(task)], {
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

const SCENARIOS = ["gossip", "big-blob"] as const;

/** One codec × scenario's series, as its child reported it. */
export interface SoakRun {
  readonly codec: CodecTarget;
  readonly scenario: SoakTask["scenario"];
  readonly series: SoakSeries;
}

/**
 * Run every codec through both scenarios, a fresh process each, with live progress on
 * stderr. A run that crashes, fails or times out is a failure; the others go on.
 */
export async function runSoaks(
  codecs: readonly CodecTarget[],
  inputs: { readonly gossip: PreparedPayload; readonly "big-blob": PreparedPayload },
  settings: { readonly seconds: number; readonly rounds: number },
  io: Io,
  log: (line: string) => void,
  command?: ForkCommand,
): Promise<{ runs: SoakRun[]; failures: SoakReport["failures"][number][] }> {
  const { seconds, rounds } = settings;
  const started = performance.now();
  const inputsDir = mkdtempSync(join(tmpdir(), "snappykit-soak-"));
  const done: SoakRun[] = [];
  const failures: SoakReport["failures"][number][] = [];
  try {
    // One folder per scenario, rows in SOAK_ROWS order: the items, then the reference's bytes.
    const dirOf = (scenario: string) => join(inputsDir, scenario);
    for (const scenario of SCENARIOS) {
      const p = inputs[scenario];
      mkdirSync(dirOf(scenario));
      writeInputs(dirOf(scenario), [
        { payload: p.payload.name, op: "compress", outputBytes: 0, items: p.payload.items },
        { payload: p.payload.name, op: "uncompress", outputBytes: 0, items: p.referenceCompressed },
      ]);
    }
    const runs = codecs.flatMap((a) => SCENARIOS.map((scenario) => ({ a, scenario })));
    const progress = progressPrinter(io.stderr);
    const blobTimes: number[] = [];
    let index = 0;
    // ETA: gossip runs take their seconds; a big-blob run as long as the ones before it.
    const eta = () => {
      const blob = blobTimes.length > 0 ? mean(blobTimes) : 8000;
      return sum(
        runs.slice(index).map((r) => (r.scenario === "gossip" ? seconds * 1000 + 500 : blob)),
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
        ...(a.variant !== undefined && { variant: true }),
      };
      try {
        const series = await soakInChild(
          { spec, inputsDir: dirOf(scenario), scenario, seconds, rounds },
          // Generous: a slow JS codec takes ~2 s a round on this VM when it is busy.
          60_000 + (scenario === "gossip" ? seconds * 1000 : rounds * 10_000),
          command,
        );
        done.push({ codec: a, scenario, series });
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
  return { runs: done, failures };
}

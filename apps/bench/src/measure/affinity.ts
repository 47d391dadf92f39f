// `--pin`: every process of one fork on one CPU, the forks taking the CPUs in turn (pyperf's
// `--affinity`, per fork). On a shared VM the CPUs do not run at one speed: on the 2-core VM
// the READMEs' numbers come from, the same loop's best time was 10.2 ms on CPU 0 and 8.4 ms
// on CPU 1 in the same minute, and a process mostly stays on the CPU it started on. Each
// codec of a fork is its own process, so unpinned, two codecs of one fork can run on CPUs
// of different speeds and their per-fork ratio carries the difference; pinned, both run on
// the same CPU, and the forks still sample every CPU. The cost: a pinned process's own
// threads (napi's thread pool, V8's GC helpers) share its one CPU, so async rows time the
// hand-off without a second CPU. Linux only (`taskset`, from util-linux).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { ForkCommand } from "./runtime.js";

/** Where the forks' processes run; `note` says what the report records. */
export interface Affinity {
  /** The CPUs the forks take in turn when pinned, "none" or "none (why not)" otherwise. */
  readonly note: string;
  /** The command that starts a process of fork `fork`: `command` itself when not pinned. */
  command(command: ForkCommand, fork: number): ForkCommand;
}

const NONE: Affinity = { note: "none", command: (c) => c };

/** The CPUs this process may run on, from a `Cpus_allowed_list` such as "0-3,8". */
export function parseCpuList(list: string): number[] {
  return list
    .trim()
    .split(",")
    .filter((part) => part !== "")
    .flatMap((part) => {
      const [from, to = from] = part.split("-").map(Number);
      if (!Number.isInteger(from) || !Number.isInteger(to) || to! < from!) {
        throw new Error(`unreadable CPU list "${list}"`);
      }
      return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
    });
}

/** Pin the forks when `pin` asks and this machine can; never throws. */
export function forkAffinity(pin: boolean): Affinity {
  if (!pin) return NONE;
  if (process.platform !== "linux") return why(`--pin needs Linux, not ${process.platform}`);
  let cpus: number[];
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    cpus = parseCpuList(/^Cpus_allowed_list:\s*(.*)$/m.exec(status)?.[1] ?? "");
  } catch (error) {
    return why(`no CPU list: ${(error as Error).message}`);
  }
  if (cpus.length === 0) return why("no CPU list in /proc/self/status");
  if (spawnSync("taskset", ["-V"], { stdio: "ignore" }).status !== 0) {
    return why("taskset is not installed: it comes with util-linux");
  }
  const cpuOf = (fork: number) => cpus[fork % cpus.length]!;
  return {
    note: `one CPU per fork, in turn: ${cpus.join(", ")} (taskset)`,
    command: (c, fork) => ({
      file: "taskset",
      args: ["-c", String(cpuOf(fork)), c.file, ...c.args],
    }),
  };
}

const why = (reason: string): Affinity => ({ note: `none (${reason})`, command: (c) => c });

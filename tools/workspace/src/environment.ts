// The machine and software a run was made on: without it a number cannot be compared.
import { execFileSync } from "node:child_process";
import os from "node:os";

/** This machine and the Node running on it. */
export interface Machine {
  readonly node: string;
  readonly v8: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly arch: string;
}

/** A run's machine, when it started and on what commit: the header every report carries. */
export interface RunEnvironment extends Machine {
  /** ISO date the run started. */
  readonly date: string;
  /** `git rev-parse HEAD`, with "-dirty" if the work tree had changes; null outside git. */
  readonly commit: string | null;
}

export function machine(): Machine {
  return {
    node: process.version,
    v8: process.versions.v8,
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    arch: process.arch,
  };
}

function git(args: string[], cwd: string): string | null {
  try {
    return execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return null;
  }
}

/** `git rev-parse HEAD` in `dir`, with "-dirty" if the work tree has changes; null outside git. */
export function gitCommit(dir: string): string | null {
  const commit = git(["rev-parse", "HEAD"], dir);
  if (commit === null) return null;
  return (git(["status", "--porcelain"], dir) ?? "") === "" ? commit : `${commit}-dirty`;
}

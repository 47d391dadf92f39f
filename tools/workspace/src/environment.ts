// The machine and software a run was made on: without it a number cannot be compared.
import { execFileSync } from "node:child_process";
import os from "node:os";
import { repoRoot, type WorkspacePackage, workspacePackages } from "./index.js";

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
  /** The packages the run measured, as git trees (reports before it: not recorded). */
  readonly measured?: Measured;
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

/** What a report measured, so a check can tell when that code has changed since. */
export interface Measured {
  /** `git rev-parse HEAD` at measurement time; null outside git. */
  readonly commit: string | null;
  /** Whether any of the folders in `trees` had uncommitted changes. */
  readonly dirty: boolean;
  /** Each measured package's folder → `git rev-parse HEAD:<folder>`. */
  readonly trees: Readonly<Record<string, string>>;
}

/**
 * The git trees of the packages a run of `app` measures: the adapters `ids` (folders under
 * packages/), the packages `app` depends on and everything those depend on, apps and tools
 * left out (they measure; they are not measured).
 */
export function measuredTrees(app: string, ids: readonly string[], root = repoRoot): Measured {
  const packages = workspacePackages(root);
  const byName = new Map(packages.map((p) => [p.name, p]));
  const deps = (p: WorkspacePackage | undefined) =>
    Object.keys((p?.pkg.dependencies as Record<string, string> | undefined) ?? {});
  const queue = [
    ...deps(byName.get(app)),
    ...packages.filter((p) => ids.some((id) => p.relDir === `packages/${id}`)).map((p) => p.name),
  ];
  const dirs = new Set<string>();
  for (const name of queue) {
    const p = byName.get(name);
    if (!p || dirs.has(p.relDir) || /^(apps|tools)\//.test(p.relDir)) continue;
    dirs.add(p.relDir);
    queue.push(...deps(p));
  }
  const folders = [...dirs].sort();
  const trees: Record<string, string> = {};
  for (const dir of folders) {
    const tree = git(["rev-parse", `HEAD:${dir}`], root);
    if (tree !== null) trees[dir] = tree;
  }
  const status = git(["status", "--porcelain", "--", ...folders], root);
  return { commit: git(["rev-parse", "HEAD"], root), dirty: (status ?? "") !== "", trees };
}

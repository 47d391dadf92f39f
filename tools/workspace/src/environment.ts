// The machine and software a run was made on: without it a number cannot be compared.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
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
      maxBuffer: 64 << 20,
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
 * The package a report's codec id is measured from: `packages/<id>`, or for a variant or a
 * runtime's row (`napi-copy`, `ffi-node26`) the package whose folder name is the id's longest
 * `<name>-` prefix.
 */
function adapterOf(id: string, packages: readonly WorkspacePackage[]) {
  const named = (p: WorkspacePackage) => p.relDir.replace(/^packages\//, "");
  return packages
    .filter((p) => p.relDir.startsWith("packages/"))
    .filter((p) => named(p) === id || id.startsWith(`${named(p)}-`))
    .sort((a, b) => named(b).length - named(a).length)[0];
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
    ...ids.flatMap((id) => adapterOf(id, packages)?.name ?? []),
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

/** The folders whose `*.json` files are the lab's committed reports. */
const REPORT_DIRS = ["apps/bench/docs", "apps/fuzz/docs"];

/** The committed reports of the repository at `root`, as paths from it. */
export function reportFiles(root = repoRoot): string[] {
  return REPORT_DIRS.flatMap((dir) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir))
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => `${dir}/${f}`)
      : [],
  );
}

/** What changed in one report's packages since it was measured (reportStatus). */
export interface ReportStatus {
  readonly file: string;
  /** When it was measured (its environment's date), if it says. */
  readonly date: string | null;
  readonly commit: string | null;
  /** Per measured package that changed: the files, and the commits that changed them. */
  readonly changed: { dir: string; files: string[]; commits: string[] }[];
  /** Why what changed cannot be told (no record, uncommitted changes, an unknown commit). */
  readonly unknown: string | null;
}

/**
 * Files whose change cannot move a figure: docs, tests, test data. A package.json counts only
 * when more than its `version` moved (a release bumps it); auto's thresholds.json not when
 * it records the report's own commit as its provenance (the sweep it was written from).
 */
function moves(root: string, commit: string, file: string): boolean {
  if (/\.md$|\.test\.[cm]?[jt]s$|\/__fixtures__\//.test(file)) return false;
  const at = (rev: string) => {
    const text = git(["show", `${rev}:${file}`], root);
    return text === null ? null : (JSON.parse(text) as Record<string, unknown>);
  };
  if (file.endsWith("/package.json")) {
    const [before, now] = [at(commit), at("HEAD")];
    if (before === null || now === null) return true;
    return JSON.stringify({ ...before, version: 0 }) !== JSON.stringify({ ...now, version: 0 });
  }
  if (file.endsWith("/thresholds.json")) {
    return (at("HEAD")?.provenance as { commit?: string } | undefined)?.commit !== commit;
  }
  return true;
}

/**
 * Per committed report of the repository at `root`: what changed, since it was measured, in
 * the packages it measured (`measured`, as measuredTrees recorded it).
 */
export function reportStatus(root = repoRoot): ReportStatus[] {
  return reportFiles(root).map((file) => {
    const report = JSON.parse(readFileSync(join(root, file), "utf8"));
    const measured: Measured | undefined = report.environment?.measured ?? report.measured;
    const status = {
      file,
      date: (report.environment?.date ?? report.date ?? null) as string | null,
      commit: measured?.commit ?? null,
      changed: [] as ReportStatus["changed"],
    };
    const commit = measured?.commit;
    const unknown = !measured
      ? "records no measured package trees"
      : measured.dirty
        ? "was measured with uncommitted changes"
        : !commit || git(["cat-file", "-e", `${commit}^{commit}`], root) === null
          ? `was measured at ${commit?.slice(0, 7)}, not in this history`
          : null;
    if (unknown !== null || !measured || !commit) return { ...status, unknown };
    for (const [dir, tree] of Object.entries(measured.trees)) {
      if (git(["rev-parse", `HEAD:${dir}`], root) === tree) continue;
      const diff = git(["diff", "--name-only", commit, "HEAD", "--", dir], root) ?? "";
      const files = diff.split("\n").filter((f) => f !== "" && moves(root, commit, f));
      if (files.length === 0) continue;
      const log = git(["log", "--format=%h %s", `${commit}..HEAD`, "--", ...files], root);
      status.changed.push({ dir, files, commits: log ? log.split("\n") : [] });
    }
    return { ...status, unknown: null };
  });
}

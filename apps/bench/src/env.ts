// The machine and software a run measured: without it a number cannot be compared.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { forkEnv } from "./fork.js";
import type { Environment } from "./report/schema.js";

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

function mitataVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    const main = require.resolve("mitata");
    const pkg = JSON.parse(readFileSync(new URL("../package.json", `file://${main}`), "utf8"));
    return `mitata@${pkg.version}`;
  } catch {
    return "mitata@unknown";
  }
}

/** Describe this process's machine; `libraries` maps codec ids to loaded libraries. */
export function collectEnvironment(
  repoRoot: string,
  libraries: Record<string, string>,
  runtime: { readonly name: string; readonly version: string },
): Environment {
  const commit = git(["rev-parse", "HEAD"], repoRoot);
  const dirty = commit !== null && (git(["status", "--porcelain"], repoRoot) ?? "") !== "";
  return {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    arch: process.arch,
    mitata: mitataVersion(),
    commit: commit === null ? null : `${commit}${dirty ? "-dirty" : ""}`,
    libraries,
    exposeGc: typeof (globalThis as { gc?: unknown }).gc === "function",
    glibcTunables: forkEnv().GLIBC_TUNABLES,
    runtime,
  };
}

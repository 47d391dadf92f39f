// The commands `pnpm test:release` (scripts/release-test.mjs) runs, and the steps they run in.
// Every child leads a session of its own, so a failure or Ctrl-C can kill it whole.
import { spawn, spawnSync } from "node:child_process";
import { repoRoot } from "@snappykit/workspace";
import { formatDuration } from "@snappykit/workspace/format";

/** A failed check: where (manager, package, step) and why. */
export class Failure extends Error {}

/** Runs `fn` as the named step: a failure inside says which step it was. */
export async function step(name, fn) {
  const t = performance.now();
  console.log(`\n== ${name}`);
  try {
    const result = await fn();
    console.log(`   (${formatDuration(performance.now() - t)})`);
    return result;
  } catch (error) {
    throw new Failure(`${name}: ${error.message}`);
  }
}

/** Throws the problems as one failure, one a line; none, nothing. */
export const fail = (problems) => {
  if (problems.length > 0) throw new Failure(`\n  ${problems.join("\n  ")}`);
};

// Its whole session: its process group is not enough, since turbo puts each task (tsc, ...)
// in a group of its own.
const killSession = (child) => spawnSync("pkill", ["-KILL", "-s", String(child.pid)]);

/**
 * `run` starts commands and `killAll` kills every one still running. Commands and their
 * output show `work` (the temporary folder) as `$TMP`.
 */
export function commands(work) {
  const children = new Set();
  const show = (text) => text.replaceAll(work, "$TMP");

  /** Runs a command; resolves with its output, rejects with the command and its output's end. */
  function run(cmd, args, { cwd, env = process.env, timeout = 240_000, label, quiet } = {}) {
    const line = show([cmd.replace(repoRoot, "."), ...args].join(" "));
    if (!quiet)
      console.log(
        `${label ? `[${label}] ` : ""}$ ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`,
      );
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    let why = "";
    const timer = setTimeout(() => {
      why = `timed out after ${timeout / 1000} s`;
      killSession(child);
    }, timeout);
    return new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => {
        if (code === 0) return resolve(output);
        const tail = show(output).trimEnd().split("\n").slice(-40).join("\n  ");
        const message = `${show(`${cmd} ${args.join(" ")}`)} ${why || `exited ${code ?? signal}`}`;
        reject(Object.assign(new Error(`${message}\n  ${tail}`), { output }));
      });
    }).finally(() => {
      clearTimeout(timer);
      children.delete(child);
    });
  }

  return { run, killAll: () => children.forEach(killSession) };
}

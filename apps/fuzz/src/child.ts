// Forking the fuzzers' child processes: IPC with advanced serialization (Uint8Arrays cross
// as bytes), stdout dropped, the first 2,000 characters of stderr kept for error reports.
import { type ChildProcess, fork } from "node:child_process";

/** A forked child and what it has written to stderr so far. */
export interface ForkedChild {
  child: ChildProcess;
  stderr(): string;
}

/**
 * Fork `path`, in this Node or the one at `execPath`. `--no-warnings` by default: the WASI
 * build and node:ffi print an experimental warning per process, which is not a result.
 */
export function forkChild(
  path: string,
  execArgv: string[] = ["--no-warnings"],
  execPath?: string,
): ForkedChild {
  const child = fork(path, [], {
    ...(execPath !== undefined && { execPath }),
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    execArgv,
  });
  let text = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (text.length < 2000) text += chunk.toString();
  });
  return { child, stderr: () => text };
}

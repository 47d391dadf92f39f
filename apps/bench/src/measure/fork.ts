// Forks: every target (an adapter's codec, a variant, or a raw library) is timed in a fresh
// process of its own, so no codec's JIT state, heap or allocator history leaks into
// another's numbers. The parent keeps the gate and the prepared inputs; it writes the inputs
// once to a folder, and each child reads them, loads only its own target and answers timing
// requests one at a time over stdin/stdout (JSON lines), so the parent decides who runs when.
// The same interface runs the cases in the bench's own process for `--forks 0`.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { RowInputs, TargetSpec } from "../model/case.js";
import type { Allocation, TimingOptions, Turn } from "../model/timing.js";
import { type CaseWorker, type Described, LocalWorker } from "./local.js";
import { settleHeap } from "./run.js";
import { childScript, type ForkCommand, NODE_RUNTIME } from "./runtime.js";

const INDEX = "rows.json";
const DATA = "rows.bin";
// The same index for the native program (inputs/native.ts), one line per row: op, output
// bytes, item count, then each item's offset and length in rows.bin.
const NATIVE_INDEX = "rows.txt";

/** Write every row's inputs to `dir` (an index, the native program's index, one binary file). */
export function writeInputs(dir: string, rows: readonly RowInputs[]): void {
  let offset = 0;
  const index = rows.map((r) => ({
    payload: r.payload,
    op: r.op,
    outputBytes: r.outputBytes,
    items: r.items.map((item) => {
      const at: [number, number] = [offset, item.length];
      offset += item.length;
      return at;
    }),
  }));
  writeFileSync(join(dir, INDEX), JSON.stringify(index));
  writeFileSync(
    join(dir, NATIVE_INDEX),
    index.map((r) => [r.op, r.outputBytes, r.items.length, ...r.items.flat()].join(" ")).join("\n"),
  );
  writeFileSync(join(dir, DATA), Buffer.concat(rows.flatMap((r) => r.items)));
}

/** Read what {@link writeInputs} wrote; every item gets its own ArrayBuffer, as in the parent. */
export function readInputs(dir: string): RowInputs[] {
  const index = JSON.parse(readFileSync(join(dir, INDEX), "utf8")) as {
    payload: string;
    op: string;
    outputBytes: number;
    items: [number, number][];
  }[];
  const data = readFileSync(join(dir, DATA));
  return index.map((r) => ({
    ...r,
    items: r.items.map(([o, n]) => new Uint8Array(data.subarray(o, o + n))),
  }));
}

/** Marks protocol lines on a child's stdout; anything else it prints goes to our stderr. */
export const MARK = "@@snappykit-bench ";

type Request =
  | { cmd: "ready" }
  | { cmd: "warm"; row: number }
  | { cmd: "sample"; row: number }
  | { cmd: "allocation"; row: number }
  // For a codec of another runtime (inputs/elsewhere.ts): what it is, and the gate's calls.
  | { cmd: "describe" }
  | { cmd: "call"; method: "compress" | "uncompress"; input: string };
type Reply = { ok: true; value: unknown } | { ok: false; error: string };

/** Thrown when a child dies, hangs or fails a request: the fork loses that target. */
export class ForkError extends Error {
  override readonly name = "ForkError";
}

/** Loading a target (a wasm compile, a native addon) may take this long on a busy machine. */
const START_TIMEOUT_MS = 60_000;

const CHILD_SCRIPT = childScript("fork-child.js");

/**
 * glibc malloc settings for the forks, unless the caller set GLIBC_TUNABLES. With the
 * defaults, whether freeing a block's output shrinks the heap (then the next call takes
 * fresh zeroed pages) depends on where earlier allocations landed, so a process decodes a
 * 109 KiB block either at ~32 µs or at ~75 µs for its whole life: libsnappy beacon-block
 * uncompress, forks 69 70 74 77 254 165 84 81 78… with the defaults, 33 35 35 36 34 34 33…
 * with these (`pnpm bench --codec ts,napi,libsnappy,snappy-wasm --payload beacon-block
 * --forks 15`, same machine, back to back). No trimming and mmap only from 32 MiB is the
 * steady state a long-running client's allocator settles into. Other allocators (Bun's
 * mimalloc, wasm memories) ignore it.
 */
export const ALLOCATOR_TUNABLES =
  "glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=67108864:glibc.malloc.mmap_threshold=33554432";

/**
 * How a fork starts a native program's target (`spec.native`): `timer serve` on the inputs
 * with the timing settings it uses (native/timer.cc).
 */
export function nativeCommand(
  spec: TargetSpec,
  inputsDir: string,
  timing: TimingOptions,
): ForkCommand {
  const { clock, warmupMs, sliceMs, batchMs, batchMaxBytes, minSamples, timeMs } = timing;
  const numbers = [warmupMs, sliceMs, batchMs, batchMaxBytes, minSamples, timeMs];
  return { file: spec.entry, args: ["serve", inputsDir, clock, ...numbers.map(String)] };
}

/** The environment a fork adds to the bench's own. */
export function forkEnv(): { GLIBC_TUNABLES: string } {
  return { GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? ALLOCATOR_TUNABLES };
}

/** One target in a child process. */
export class ChildWorker implements CaseWorker {
  private readonly waiting: ((reply: Reply | Error) => void)[] = [];
  private exited: string | undefined;

  private constructor(
    readonly spec: TargetSpec,
    private readonly child: ChildProcess,
    private readonly timeoutMs: number,
  ) {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (!line.startsWith(MARK)) {
        process.stderr.write(`[${spec.codec}${spec.impl === "raw" ? ":raw" : ""}] ${line}\n`);
        return;
      }
      this.waiting.shift()?.(JSON.parse(line.slice(MARK.length)) as Reply);
    });
    // A request written to a child that has just died fails with EPIPE on stdin; the exit
    // handler below rejects every waiting call with the reason, so the write error adds
    // nothing (and unhandled, it would crash the bench).
    child.stdin!.on("error", () => {});
    child.on("exit", (code, signal) => {
      this.exited = signal ? `killed by ${signal}` : `exited with code ${code}`;
      for (const w of this.waiting.splice(0)) w(new ForkError(`child ${this.exited}`));
    });
  }

  /**
   * Spawn the child for `spec` (in Node, or `command`'s runtime; a native program is
   * `command` itself, {@link nativeCommand}) and wait until its target is loaded. Without
   * `inputsDir` it has no rows to time, only `describe` and `call` to answer.
   */
  static async start(
    spec: TargetSpec,
    inputsDir: string | undefined,
    timing: TimingOptions,
    timeoutMs: number,
    command: ForkCommand = NODE_RUNTIME.command!,
  ): Promise<ChildWorker> {
    const args = spec.native
      ? command.args
      : [...command.args, CHILD_SCRIPT, JSON.stringify({ spec, inputsDir, timing })];
    const child = spawn(command.file, args, {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, ...forkEnv() },
    });
    const worker = new ChildWorker(spec, child, timeoutMs);
    try {
      await worker.call({ cmd: "ready" }, START_TIMEOUT_MS);
    } catch (error) {
      // Nobody will close a worker that never started: end the child here, or it waits on
      // its stdin forever and keeps the bench alive (a target that cannot load in Bun/Deno).
      await worker.close();
      throw error;
    }
    return worker;
  }

  private call(request: Request, timeoutMs = this.timeoutMs): Promise<unknown> {
    if (this.exited) return Promise.reject(new ForkError(`child ${this.exited}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.kill("SIGKILL");
        reject(new ForkError(`no answer to ${request.cmd} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.waiting.push((reply) => {
        clearTimeout(timer);
        if (reply instanceof Error) reject(reply);
        else if (reply.ok) resolve(reply.value);
        else reject(new ForkError(reply.error));
      });
      this.child.stdin!.write(`${JSON.stringify(request)}\n`);
    });
  }

  warm(row: number): Promise<number> {
    return this.call({ cmd: "warm", row }) as Promise<number>;
  }

  sample(row: number): Promise<Turn> {
    return this.call({ cmd: "sample", row }) as Promise<Turn>;
  }

  allocation(row: number): Promise<Allocation> {
    return this.call({ cmd: "allocation", row }) as Promise<Allocation>;
  }

  describe(): Promise<Described> {
    return this.call({ cmd: "describe" }) as Promise<Described>;
  }

  /** The target's `compress` or `uncompress` on `input`, in the child. */
  async run(method: "compress" | "uncompress", input: Uint8Array): Promise<Uint8Array> {
    const base64 = Buffer.from(input.buffer, input.byteOffset, input.length).toString("base64");
    const out = (await this.call({ cmd: "call", method, input: base64 })) as string;
    return new Uint8Array(Buffer.from(out, "base64"));
  }

  /** Let the bench exit without closing this child (which then reads its stdin's end). */
  unref(): void {
    this.child.unref();
    for (const pipe of [this.child.stdin, this.child.stdout]) (pipe as Socket | null)?.unref();
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await gone;
    clearTimeout(timer);
  }
}

/** The child's side: load the target, then answer requests until stdin closes. */
export async function serveChild(arg: string): Promise<void> {
  const { spec, inputsDir, timing } = JSON.parse(arg) as {
    spec: TargetSpec;
    inputsDir?: string;
    timing: TimingOptions;
  };
  const send = (reply: Reply) => process.stdout.write(`${MARK}${JSON.stringify(reply)}\n`);
  // A target that cannot load answers every request with the reason, starting with the
  // parent's "ready", so the parent reports it like any other failed fork.
  let worker: LocalWorker | Error;
  try {
    worker = await LocalWorker.start(spec, inputsDir ? readInputs(inputsDir) : [], timing);
  } catch (error) {
    worker = new Error(`cannot load ${spec.codec}: ${(error as Error).message}`);
  }
  // Before the parent's "ready": nothing is timed until every process of the fork settled.
  settleHeap();
  for await (const line of createInterface({ input: process.stdin })) {
    const request = JSON.parse(line) as Request;
    try {
      if (worker instanceof Error) throw worker;
      const value =
        request.cmd === "ready"
          ? true
          : request.cmd === "warm"
            ? await worker.warm(request.row)
            : request.cmd === "sample"
              ? await worker.sample(request.row)
              : request.cmd === "allocation"
                ? await worker.allocation(request.row)
                : request.cmd === "describe"
                  ? worker.describe()
                  : Buffer.from(
                      worker.call(request.method, Buffer.from(request.input, "base64")),
                    ).toString("base64");
      send({ ok: true, value });
    } catch (error) {
      send({ ok: false, error: (error as Error).message });
    }
  }
}

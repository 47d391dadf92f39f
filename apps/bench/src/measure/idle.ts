// While forks are timed, idle CPUs poll instead of halting. On a VM an idle vCPU halts into
// the hypervisor (on the VM the READMEs' numbers come from: `haltpoll`, no poll window), and waking it takes
// tens of µs. Every hand-off between threads pays that wake-up: napi's thread pool, V8's
// parallel GC helpers. How often the other CPU happens to be idle depends on which codecs
// share the run, so a codec timed alone measured a different machine (napi's thread-pool
// compress: 43–54 µs alone, 14 µs beside all; with polling 13.5 µs alone). Holding Linux's
// PM QoS request at 0 µs (`/dev/cpu_dma_latency`, as tuned's latency-performance profile
// does) keeps every CPU in its polling state for as long as the file stays open.
import { closeSync, openSync, writeSync } from "node:fs";

const QOS_FILE = "/dev/cpu_dma_latency";

/** The request while it is held; `note` says what the report records. */
export interface IdleHold {
  /** "poll" when held, else why not (e.g. "default (/dev/cpu_dma_latency: EACCES)"). */
  readonly note: string;
  release(): void;
}

/** Ask for 0 µs CPU wake-up latency until `release()`; never throws. */
export function holdPollingIdle(): IdleHold {
  if (process.platform !== "linux") return { note: `default (${process.platform})`, release() {} };
  let fd: number | undefined;
  try {
    fd = openSync(QOS_FILE, "w");
    // The value is a binary s32 in µs; 0 allows no exit latency, so only polling.
    writeSync(fd, new Uint8Array(4));
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { note: `default (${QOS_FILE}: ${code})`, release() {} };
  }
  let held: number | undefined = fd;
  return {
    note: "poll",
    release() {
      if (held !== undefined) closeSync(held);
      held = undefined;
    },
  };
}

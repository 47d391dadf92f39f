// Per-call peak RSS on Linux. getrusage's maxRSS only ever rises, so after one hungry call
// every later call would hide under its peak. Writing "5" to /proc/self/clear_refs resets
// the kernel's high-water mark (VmHWM) to the current RSS, which gives each call its own
// peak. Elsewhere (or where /proc is read-only) we fall back to RSS sampled after the call.
import { closeSync, openSync, readSync, writeSync } from "node:fs";

const statusBuffer = Buffer.alloc(4096);

function tryOpen(path: string, flags: string): number | undefined {
  try {
    return openSync(path, flags);
  } catch {
    return undefined;
  }
}

/** Reads RSS and peak RSS of this process, and resets the peak. */
export class MemoryProbe {
  readonly #status = tryOpen("/proc/self/status", "r");
  readonly #clearRefs = tryOpen("/proc/self/clear_refs", "w");
  /** True when per-call peaks are exact (Linux with a writable clear_refs). */
  readonly exactPeaks: boolean;

  constructor() {
    let exact = this.#status !== undefined && this.#clearRefs !== undefined;
    if (exact) {
      try {
        this.resetPeak();
        exact = this.#read("VmHWM") > 0;
      } catch {
        exact = false;
      }
    }
    this.exactPeaks = exact;
  }

  /** Reset the high-water mark to the current RSS; returns the current RSS in bytes. */
  resetPeak(): number {
    if (this.#clearRefs !== undefined) writeSync(this.#clearRefs, "5");
    return this.rss();
  }

  /** Current RSS, bytes. */
  rss(): number {
    return this.#status === undefined ? process.memoryUsage.rss() : this.#read("VmRSS");
  }

  /** Peak RSS since the last {@link resetPeak}, bytes (current RSS without exact peaks). */
  peak(): number {
    return this.exactPeaks ? this.#read("VmHWM") : this.rss();
  }

  #read(field: "VmHWM" | "VmRSS"): number {
    const n = readSync(this.#status!, statusBuffer, 0, statusBuffer.length, 0);
    const text = statusBuffer.toString("latin1", 0, n);
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(text);
    return match ? Number(match[1]) * 1024 : 0;
  }

  close(): void {
    if (this.#status !== undefined) closeSync(this.#status);
    if (this.#clearRefs !== undefined) closeSync(this.#clearRefs);
  }
}

/** RSS of another process (the parent watching a child), bytes; 0 once it is gone. */
export function rssOf(pid: number): number {
  const fd = tryOpen(`/proc/${pid}/status`, "r");
  if (fd === undefined) return 0;
  try {
    const n = readSync(fd, statusBuffer, 0, statusBuffer.length, 0);
    const match = /VmRSS:\s+(\d+) kB/.exec(statusBuffer.toString("latin1", 0, n));
    return match ? Number(match[1]) * 1024 : 0;
  } finally {
    closeSync(fd);
  }
}

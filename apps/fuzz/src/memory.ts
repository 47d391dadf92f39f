// Per-call peak RSS on Linux. getrusage's maxRSS only ever rises, so after one hungry call
// every later call would hide under its peak. Writing "5" to /proc/self/clear_refs resets
// the kernel's high-water mark (VmHWM) to the current RSS, which gives each call its own
// peak. Elsewhere (or where /proc is read-only) we fall back to RSS sampled after the call.
import { readFileSync, writeFileSync } from "node:fs";

/** A `kB` field of `/proc/<pid>/status` in bytes; 0 when there is none (or no process). */
function status(pid: number | "self", field: "VmHWM" | "VmRSS"): number {
  let text = "";
  try {
    text = readFileSync(`/proc/${pid}/status`, "latin1");
  } catch {}
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(text);
  return match ? Number(match[1]) * 1024 : 0;
}

/** RSS of another process (the parent watching a child), bytes; 0 once it is gone. */
export const rssOf = (pid: number): number => status(pid, "VmRSS");

/** Reads RSS and peak RSS of this process, and resets the peak. */
export class MemoryProbe {
  /** True when per-call peaks are exact (Linux with a writable clear_refs). */
  readonly exactPeaks = this.#clear() && status("self", "VmHWM") > 0;

  #clear(): boolean {
    try {
      writeFileSync("/proc/self/clear_refs", "5");
      return true;
    } catch {
      return false;
    }
  }

  /** Reset the high-water mark to the current RSS; returns the current RSS in bytes. */
  resetPeak(): number {
    if (this.exactPeaks) this.#clear();
    return this.rss();
  }

  /** Current RSS, bytes. */
  rss(): number {
    return status("self", "VmRSS") || process.memoryUsage.rss();
  }

  /** Peak RSS since the last {@link resetPeak}, bytes (current RSS without exact peaks). */
  peak(): number {
    return this.exactPeaks ? status("self", "VmHWM") : this.rss();
  }
}

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

/** Reset this process's high-water mark to its current RSS; false where /proc cannot. */
function clearPeak(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/** True when per-call peaks are exact (Linux with a writable clear_refs). */
export const exactPeaks = clearPeak() && status("self", "VmHWM") > 0;

/** This process's RSS, bytes. */
export const rss = (): number => status("self", "VmRSS") || process.memoryUsage.rss();

/** Reset the high-water mark to the current RSS; returns the current RSS in bytes. */
export function resetPeak(): number {
  if (exactPeaks) clearPeak();
  return rss();
}

/** Peak RSS since the last {@link resetPeak}, bytes (current RSS without exact peaks). */
export const peak = (): number => (exactPeaks ? status("self", "VmHWM") : rss());

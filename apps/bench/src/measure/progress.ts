// The run's live output on stderr while it measures: which fork and case, elapsed, ETA.
import { formatDuration } from "@snappykit/workspace/format";
import type { Progress } from "../model/timing.js";

/** Streams the run writes to (replaceable in tests). */
export interface Io {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
}

/** Prints the live "case i of N" line: rewritten in place on a TTY, one line per case otherwise. */
export function progressPrinter(stream: NodeJS.WriteStream): (p: Progress) => void {
  const tty = stream.isTTY === true;
  return (p) => {
    const eta = p.etaMs === undefined ? "…" : formatDuration(p.etaMs);
    const fork = p.extra ? `extra fork ${p.fork + 1}` : `fork ${p.fork + 1}/${p.forks}`;
    const line = `[${fork}] [${String(p.index).padStart(String(p.total).length)}/${p.total}] ${p.label}  elapsed ${formatDuration(p.elapsedMs)}  ETA ${eta}`;
    if (tty) {
      const cols = stream.columns ?? 100;
      stream.write(`\r\x1b[2K${line.slice(0, cols - 1)}`);
    } else {
      stream.write(`${line}\n`);
    }
  };
}

/** Clear the progress line (TTY only). */
export function clearProgress(stream: NodeJS.WriteStream): void {
  if (stream.isTTY) stream.write("\r\x1b[2K");
}

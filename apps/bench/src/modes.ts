// What the opt-in runs (`--sweep`, `--soak`) share: their environment and the run's
// one-line description.
import { repoRoot } from "@snappykit/workspace";
import { collectEnvironment } from "./env.js";
import { formatDuration } from "./report/format.js";
import type { Environment } from "./report/schema.js";
import { NODE_RUNTIME } from "./runtime.js";
import type { AvailableCodec } from "./select.js";

/** Where and with what a sweep or soak ran (Node: both time in Node processes). */
export function nodeEnvironment(selected: readonly AvailableCodec[]): Environment {
  return collectEnvironment(
    repoRoot,
    Object.fromEntries(selected.map((a) => [a.id, a.codec.library])),
    NODE_RUNTIME,
  );
}

/** The command as typed, for reports. */
export const commandLine = () => `pnpm bench ${process.argv.slice(2).join(" ")}`.trim();

/** "`command` · date · commit · Node · CPU · …" under a report's title. */
export function runLine(
  command: string,
  e: Environment,
  settings: string,
  durationMs: number,
): string {
  return [
    `\`${command}\``,
    `${e.date.slice(0, 16).replace("T", " ")} UTC`,
    `commit ${e.commit?.slice(0, 12) ?? "unknown"}`,
    `Node ${e.node}`,
    `${e.cpu} × ${e.cores} cores, ${e.memoryGiB} GiB`,
    `${settings}, ${formatDuration(durationMs)}`,
  ].join(" · ");
}

// What the opt-in runs (`--sweep`, `--soak`) share: choosing the codecs, the report folder,
// writing the files, and the run's one-line description.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { discoverAdapters, loadAdapters, repoRoot } from "./adapters.js";
import { type CliOptions, selectNames, UsageError } from "./args.js";
import { adapterTarget, type Target } from "./cases.js";
import { collectEnvironment, type Environment } from "./env.js";
import { chooseReference } from "./gate.js";
import { type AvailableCodec, availableCodecs, DEFAULT_OUT } from "./main.js";
import { formatDuration } from "./report/format.js";
import { NODE_RUNTIME } from "./runtime.js";

/** Load every adapter and pick the codecs `--codec` names (all by default) and the gate reference. */
export async function chooseCodecs(
  opts: CliOptions,
  log: (line: string) => void,
): Promise<{ selected: AvailableCodec[]; targets: Target[]; gateReference: Target }> {
  const { loaded, failed } = await loadAdapters(discoverAdapters());
  const available = availableCodecs(loaded);
  const all = available.map((a) => a.id);
  const ids = opts.codecs ? selectNames("codec", opts.codecs, all) : all;
  for (const f of failed) log(`unavailable: ${f.id} (${f.packageName}): ${f.reason}`);
  const selected = available.filter((a) => ids.includes(a.id));
  if (selected.length === 0) throw new UsageError("nothing to run: no codec loaded (see --list)");
  return {
    selected,
    targets: selected.map((a) => adapterTarget(a.id, a.codec, a.variantOf !== undefined)),
    gateReference: chooseReference(available.map((a) => adapterTarget(a.id, a.codec))),
  };
}

/**
 * Write the run's files to `--out`, else apps/bench/results for a `complete` run (full
 * settings, nothing filtered) and apps/bench/results/partial for any other; returns paths.
 */
export function writeReports(
  opts: CliOptions,
  complete: boolean,
  files: readonly (readonly [string, string])[],
): string[] {
  const outDir = resolve(opts.out ?? (complete ? DEFAULT_OUT : join(DEFAULT_OUT, "partial")));
  mkdirSync(outDir, { recursive: true });
  return files.map(([name, text]) => {
    writeFileSync(join(outDir, name), text);
    return join(outDir, name);
  });
}

/** The command as typed, for reports. */
/** Where and with what a sweep or soak ran (Node: both time in Node processes). */
export function nodeEnvironment(selected: readonly AvailableCodec[]): Environment {
  return collectEnvironment(
    repoRoot,
    Object.fromEntries(selected.map((a) => [a.id, a.codec.library])),
    NODE_RUNTIME,
  );
}

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

// What a run is asked to do: the parsed command line (inputs/args.ts parses it) and the
// defaults it falls back on.

import { NODE_LINES } from "@snappykit/workspace/node-lines";

/**
 * Where the forks time the cases: `--runtime`. `node` is the Node running the bench; the
 * Node LTS lines are the registry's `node` packages pinned in tools/node-lines.
 */
export const RUNTIMES = ["node", ...NODE_LINES, "bun", "deno", "browser"] as const;
/** One `--runtime`. */
export type RuntimeName = (typeof RUNTIMES)[number];
/** The runtimes whose forks are Node processes: what the sweep and the soak run in. */
export const NODE_RUNTIMES: readonly RuntimeName[] = ["node", ...NODE_LINES];

/**
 * The runtime of a run without `--runtime`, of the README's numbers and of auto's shipped
 * thresholds: the newest Node LTS line (Node 26 became LTS in October 2026; Node 20, what a
 * fresh machine may run the bench with, is past its end of life). Without it installed, a run
 * falls back to the Node running the bench and says so.
 */
export const DEFAULT_RUNTIME: RuntimeName = "node26";

/**
 * What a run does (modes/ has one file each; inputs/args.ts names the command of each): time
 * the payloads (`run`), sizes 64 B → 4 MiB for crossovers (`sweep`), memory under load
 * (`soak`), earlier runs side by side (`merge`). Each makes its own kind of report; `render`
 * draws a saved one again with today's renderers.
 */
export const MODES = ["bench", "sweep", "soak", "merge", "render"] as const;
/** One mode, and the kind of report it makes. */
export type ModeName = (typeof MODES)[number];

/** The parsed command line. Lists are undefined when the flag was not given. */
export interface CliOptions {
  /** `bench list`: print the catalog instead of running. */
  readonly list: boolean;
  readonly quick: boolean;
  readonly codecs?: readonly string[];
  readonly payloads?: readonly string[];
  /** `--data`: the user's own files or folders, one payload each (inputs/payloads.ts). */
  readonly data?: readonly string[];
  readonly ops?: readonly string[];
  /** Output folder; undefined = apps/bench/results. */
  readonly out?: string;
  /** `--format`: report files by format id (render/formats.ts); undefined = every one. */
  readonly formats?: readonly string[];
  readonly compare?: string;
  readonly thresholdPercent: number;
  readonly failOnRegression: boolean;
  readonly reference?: string;
  readonly clock: "wall" | "cpu";
  /** The runtime the forks run in (the gate and the reports stay in Node). */
  readonly runtime: RuntimeName;
  /** `--runtime` was not given: {@link DEFAULT_RUNTIME}, or this Node when it is missing. */
  readonly defaultRuntime: boolean;
  /** Forks per target; undefined = the mode's default. */
  readonly forks?: number;
  /** `--pin`: each fork's processes on one CPU (measure/affinity.ts). */
  readonly pin: boolean;
  /** `--slow-down id=percent`: make these codecs slower on purpose (statistics self-test). */
  readonly slowdowns: readonly { readonly codec: string; readonly percent: number }[];
  /** The command's mode. */
  readonly mode: ModeName;
  /** `--sizes`: the sweep's message sizes in bytes; undefined = 64 B to 4 MiB. */
  readonly sizes?: readonly number[];
  /** `soak --seconds`: length of the soak's gossip scenario; undefined = the mode's default. */
  readonly soakSeconds?: number;
  /** `soak --rounds`: rounds of the soak's big blob; undefined = the mode's default. */
  readonly soakRounds?: number;
  /** `merge`: the bench.json files to put side by side. */
  readonly merge?: readonly string[];
  /** `render`: a bench, sweep or soak report (.json) to render again. */
  readonly render?: string;
}

/** The codec relative figures divide by unless `--reference` names another. */
export const DEFAULT_REFERENCE = "napi";
/** The reference of `--runtime browser` runs. */
export const BROWSER_REFERENCE = "ts";

/** Preferred reference codecs, in order: Google's C++ libsnappy, then snappy@7. */
export const REFERENCE_PREFERENCE = ["libsnappy", "napi"] as const;

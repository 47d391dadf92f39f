// A mode is data for the one pipeline (pipeline.ts): what it selects from the catalog, how
// it measures what the gate prepared, and the report it makes of that. The pipeline does the
// rest alike for every mode: load the catalog, open the runtime, run the gate, record the
// environment, write the formats. A new mode is one file here and one entry in index.ts.
import type { CodecTarget } from "@snappykit/workspace/targets";
import type { Catalog } from "../inputs/catalog.js";
import type { OpenRuntime } from "../measure/launch.js";
import type { Io } from "../measure/progress.js";
import type { BenchPayload, PreparedInputs, Target } from "../model/case.js";
import type { CliOptions } from "../model/options.js";
import type { Outcome, ReportKind, Reports } from "../model/outcome.js";
import type { Environment } from "../model/report.js";

/** The run as every stage sees it. */
export interface RunContext {
  readonly opts: CliOptions;
  readonly io: Io;
  readonly log: (line: string) => void;
  /** performance.now() when the run started. */
  readonly started: number;
  /** The command as typed, for the report. */
  readonly command: string;
}

/** What every mode selects: what the gate checks and prepares. */
export interface Selected {
  /** The codecs the run measures (the environment records their libraries). */
  readonly codecs: readonly CodecTarget[];
  /** Every target the gate checks against its reference (raw libraries included). */
  readonly targets: readonly Target[];
  /** The payloads the gate prepares. */
  readonly payloads: readonly BenchPayload[];
  /** For the log: what the gate checks, "12 codecs × 5 payloads". */
  readonly describe: string;
}

/** What the pipeline hands a mode to measure and summarise. */
export interface Prepared<S extends Selected> {
  readonly selection: S;
  /** The payloads with the gate reference's bytes, and what the gate checked. */
  readonly gate: PreparedInputs;
  /** The machine, commit and libraries, recorded before anything is timed. */
  readonly environment: Environment;
  readonly runtime: OpenRuntime;
  /** The folder the reports go to (inputs/reports.ts outputDir). */
  readonly out: string;
}

/**
 * A mode that reads reports instead of timing (`merge`): no catalog, no runtime, no gate;
 * it builds its report from the files it reads, and the formats render it.
 */
export interface ReadingMode {
  /** Read and check the inputs (a bad one is a UsageError) and build the report. */
  read(run: RunContext): Outcome;
  /** Where its files go, and their name (default: results/partial/merge, the report's kind). */
  readonly target?: (run: RunContext) => { readonly dir: string; readonly stem: string };
}

/** One mode: its stages of the pipeline, and the kind of report it makes. */
export interface Mode<K extends ReportKind, S extends Selected = Selected, M = unknown> {
  readonly kind: K;
  /** 1. What to run, every name checked before anything is timed. */
  select(run: RunContext, catalog: Catalog): S;
  /** Full settings and nothing filtered: the report replaces the one in apps/bench/results. */
  complete(opts: CliOptions): boolean;
  /** 3. Measure what the gate prepared (2). */
  measure(run: RunContext, prepared: Prepared<S>): Promise<M>;
  /** 4. The run's one report object. */
  summarise(run: RunContext, prepared: Prepared<S>, measured: M): Reports[K];
  /** The exit code the report calls for (0 without). */
  exitCode?(run: RunContext, report: Reports[K]): number;
}

// bench.json: the one report object of a payload run. The bench mode builds it
// (modes/bench.ts); the formats (render/) and `--compare` read it. Its comparison is in
// compare.ts, the sweep's and the soak's reports in sweep.ts and soak.ts.
import type { RunEnvironment } from "@snappykit/workspace/environment";
import type { SizeResult, TargetImpl } from "./case.js";
import type { ComparisonEntry, ComparisonInfo } from "./compare.js";
import type { Interval } from "./estimate.js";
import type { Allocation, TimingOptions } from "./timing.js";

/** Bumped when the report's shape changes incompatibly (2: forks and intervals). */
export const REPORT_SCHEMA = 2;

/** A loaded codec as the report lists it. */
export interface CodecInfo {
  readonly id: string;
  readonly packageName: string;
  readonly library: string;
  readonly runtime: string;
  /** Whether it offers compressAsync/uncompressAsync (thread pool). */
  readonly async: boolean;
  /** For an adapter's variant (non-default settings): the adapter's id. */
  readonly variantOf?: string;
}

/** An adapter that could not be loaded, and why. */
export interface UnavailableCodec {
  readonly id: string;
  readonly packageName: string;
  readonly reason: string;
}

/** A payload as the report lists it. */
export interface PayloadInfo {
  readonly name: string;
  readonly description: string;
  readonly kind: string;
  readonly items: number;
  readonly bytes: number;
}

/** Everything one `pnpm bench` run measured. */
export interface BenchReport {
  readonly schema: typeof REPORT_SCHEMA;
  /** The command line that produced it. */
  readonly command: string;
  readonly mode: "full" | "quick";
  readonly timing: TimingOptions;
  readonly durationMs: number;
  readonly environment: Environment;
  /** The codec relative figures divide by. */
  readonly reference: string;
  /** The codec the gate checked everything against; every `uncompress` decodes its output. */
  readonly gateReference: string;
  readonly gateChecks: number;
  readonly payloads: readonly PayloadInfo[];
  readonly ops: readonly { readonly id: string; readonly description: string }[];
  readonly codecs: readonly CodecInfo[];
  readonly unavailable: readonly UnavailableCodec[];
  readonly sizes: readonly SizeResult[];
  readonly cases: readonly CaseResult[];
  /** Per payload × op: each codec relative to the reference and to the fastest. */
  readonly relative: readonly RelativeRow[];
  readonly overhead: readonly OverheadRow[];
  /** Forks that lost a target (crash, hang, failed request); the run went on without it. */
  readonly failures: readonly ForkFailure[];
  /** With `--compare`: one entry per matched case, and how the comparison was made. */
  readonly comparison?: readonly ComparisonEntry[];
  readonly compared?: ComparisonInfo;
  /** The fuzzer's safety matrix as the run found it; reports before it: none. */
  readonly safety?: SafetySection;
  /**
   * The latest report of every other `--runtime` in the same folder layout, the cases only;
   * reports before it (or written elsewhere with `--out`): none.
   */
  readonly runtimes?: readonly RuntimeRun[];
}

/** apps/fuzz's safety matrix, from its report file (the bench does not run the fuzzer). */
export interface SafetySection {
  /** The file, relative to the repository root. */
  readonly source: string;
  /** The machine, Node and date of the fuzzing run; reports before it: not recorded. */
  readonly machine?: string;
  /** The codecs a filtered run kept the rows of (all when absent). */
  readonly codecs?: readonly string[];
  /** The fuzzer's own Markdown of the matrix; absent when the file holds none. */
  readonly markdown?: string;
  /** Why the file could not be read. */
  readonly error?: string;
}

/** Another runtime's latest run of the same bench, as the Runtimes section uses it. */
export interface RuntimeRun {
  readonly runtime: { readonly name: string; readonly version: string };
  readonly cases: readonly Pick<CaseResult, "codec" | "impl" | "payload" | "op" | "p50" | "ci">[];
}

/** Where and with what a run was made (the machine as the fuzzer describes it too). */
export interface Environment extends RunEnvironment {
  /** Reports before the bench dropped mitata name its version. */
  readonly mitata?: string;
  /** Each codec id → the backend library actually loaded (name@version). */
  readonly libraries: Record<string, string>;
  readonly exposeGc: boolean;
  /** The GLIBC_TUNABLES the forks ran with (measure/fork.ts); reports before it: glibc defaults. */
  readonly glibcTunables?: string;
  /**
   * Idle CPUs while forks were timed (measure/idle.ts): "poll" when the bench held
   * `/dev/cpu_dma_latency` at 0, else "default (why not)"; reports before it: default.
   */
  readonly cpuIdle?: string;
  /** Where the forks' processes ran (measure/affinity.ts, `--pin`); reports before it: none. */
  readonly affinity?: string;
  /** The runtime the forks timed in (`--runtime`); reports before it was recorded: Node. */
  readonly runtime?: { readonly name: string; readonly version: string };
  /** How busy the machine was; reports before it: not recorded. */
  readonly load?: MachineLoad;
}

/**
 * The load average (1, 5 and 15 minutes: processes running or waiting for a core) when the
 * run started and when its measuring ended, and the cores it had. `null` where the system
 * has no load average (Windows).
 */
export interface MachineLoad {
  readonly cores: number;
  readonly start: readonly [number, number, number] | null;
  readonly end?: readonly [number, number, number] | null;
}

/** A machine counts as busy when more than half its cores' worth of work waited at the start. */
export const isBusy = (load: MachineLoad | undefined): boolean =>
  load?.start != null && load.start[0] > load.cores / 2;

/** The runtime a report's forks ran in (reports before `--runtime`: this Node). */
export const runtimeOf = (e: Environment): { readonly name: string; readonly version: string } =>
  e.runtime ?? { name: "node", version: e.node.replace(/^v/, "") };

/** What a case is, besides what was measured (from the parent's case list). */
export interface CaseIdentity {
  readonly key: string;
  readonly codec: string;
  readonly impl: TargetImpl;
  readonly library: string;
  readonly payload: string;
  readonly op: string;
  readonly items: number;
  readonly bytes: number;
}

/** Every figure measured for one case. Times are nanoseconds per op (all items). */
export interface CaseResult extends CaseIdentity {
  /** Ops per timed batch (one sample = the mean op time of one batch). */
  readonly batch: number;
  /** Batches timed, all forks. */
  readonly samples: number;
  /** Forks that timed the case. */
  readonly forks: number;
  /** Each fork's median batch time, by fork index (null: that fork lost the target). */
  readonly forkMedians: readonly (number | null)[];
  /** The estimate: the median of the fork medians. */
  readonly p50: number;
  /** Its distribution-free interval (summarise/stats.ts); absent with fewer than 2 forks. */
  readonly ci?: Interval;
  /** Percentiles and extremes of every batch of every fork. */
  readonly p75: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
  /**
   * Bytes allocated per op: `heap` is V8's heap statistics (V8 `used_heap_size +
   * malloced_memory`), `external` the ArrayBuffer/Buffer backing stores that probe does
   * not see (where output bytes live). Median of single ops after a forced GC.
   */
  readonly alloc: Allocation;
  /**
   * Peak external memory of one op (ops that sample it: the framed reads), bytes: the median
   * over the forks that measured it, and their lowest and highest (measure/run.ts).
   */
  readonly peak?: {
    readonly bytes: number;
    readonly low: number;
    readonly high: number;
    readonly forks: number;
  };
  /** Wall time the case took over all forks (warm-up, sampling, allocation). */
  readonly wallMs: number;
}

/** One codec in a row, relative to the reference and to the row's fastest. */
export interface RelativeCell {
  readonly codec: string;
  /** time / reference time; absent when the reference did not run this row. */
  readonly ratio?: number;
  readonly ci?: Interval;
  /** Not distinguishable from the fastest: the interval of time / fastest reaches 1. */
  readonly fastest: boolean;
}

/** A row (payload × op) in relative terms. */
export interface RelativeRow {
  readonly payload: string;
  readonly op: string;
  readonly reference: string;
  /** Codecs tied for fastest (every one the data cannot tell from the fastest estimate). */
  readonly fastest: readonly string[];
  readonly cells: readonly RelativeCell[];
}

/** Adapter vs its library called directly, for one (codec, payload, op). */
export interface OverheadRow {
  readonly codec: string;
  readonly payload: string;
  readonly op: string;
  readonly rawP50: number;
  readonly adapterP50: number;
  /** (adapter / raw − 1) × 100: what the adapter's conversions and guards cost. */
  readonly percent: number;
  /** Its interval in percent, paired by fork. */
  readonly ci?: Interval;
  /** The interval includes zero: no overhead the data can show. */
  readonly withinNoise: boolean;
}

/** A fork that lost a target: crashed, hung, or failed a request. */
export interface ForkFailure {
  readonly codec: string;
  readonly impl: string;
  readonly fork: number;
  readonly reason: string;
}

// The bench report's schema: every type `bench.json` holds, in one place. The run builds
// one BenchReport (build.ts); the renderers (json, markdown, svg, terminal) and
// `--compare` read it.
import type { Machine } from "@snappykit/workspace/environment";
import type { TargetImpl } from "../cases.js";
import type { Allocation, TimingOptions } from "../run.js";
import type { Interval } from "../stats.js";

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
}

/** Where and with what a run was made (the machine as the fuzzer describes it too). */
export interface Environment extends Machine {
  readonly date: string;
  readonly mitata: string;
  /** `git rev-parse HEAD`, with "-dirty" if the work tree had changes; null outside git. */
  readonly commit: string | null;
  /** Each codec id → the backend library actually loaded (name@version). */
  readonly libraries: Record<string, string>;
  readonly exposeGc: boolean;
  /** The GLIBC_TUNABLES the forks ran with (fork.ts); reports before it: glibc defaults. */
  readonly glibcTunables?: string;
  /**
   * Idle CPUs while forks were timed (idle.ts): "poll" when the bench held
   * `/dev/cpu_dma_latency` at 0, else "default (why not)"; reports before it: default.
   */
  readonly cpuIdle?: string;
  /** The runtime the forks timed in (`--runtime`); reports before it was recorded: Node. */
  readonly runtime?: { readonly name: string; readonly version: string };
}

/** Compressed size of one payload by one codec's encoder. */
export interface SizeResult {
  readonly codec: string;
  readonly payload: string;
  readonly bytes: number;
  readonly compressedBytes: number;
  /** bytes / compressedBytes: above 1 means smaller. */
  readonly ratio: number;
}

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
  /** Its distribution-free interval (stats.ts); absent with fewer than two forks. */
  readonly ci?: Interval;
  /** Percentiles and extremes of every batch of every fork. */
  readonly p75: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
  /**
   * Bytes allocated per op: `heap` is mitata's probe (V8 `used_heap_size +
   * malloced_memory`), `external` the ArrayBuffer/Buffer backing stores that probe does
   * not see (where output bytes live). Median of single ops after a forced GC.
   */
  readonly alloc: Allocation;
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

/** One matched case. `change` and `ci` are percent of the baseline (positive: slower). */
export interface ComparisonEntry {
  readonly key: string;
  readonly codec: string;
  readonly impl: string;
  readonly payload: string;
  readonly op: string;
  readonly baseP50: number;
  readonly p50: number;
  readonly change: number;
  readonly ci?: Interval;
  /** The test's two-sided p-value. */
  readonly p: number;
  readonly significant: boolean;
  /**
   * "within noise": the test sees a change, but smaller than the noise threshold, the
   * size two runs of one commit already differ by here (Criterion's "change within noise
   * threshold").
   */
  readonly verdict: "slower" | "faster" | "within noise" | "no significant change";
  /**
   * Present when a run's forks ran at one of two speeds (see compare.ts): the test and
   * `change` then cover only the forks faster than `cut` (ns per op) in each run, and the
   * slow ones are counted here, not tested.
   */
  readonly twoSpeeds?: {
    readonly cut: number;
    readonly baseSlow: number;
    readonly baseForks: number;
    readonly slow: number;
    readonly forks: number;
  };
}

/** How the comparison was made, and what it could not compare. */
export interface ComparisonInfo {
  readonly baseline: string;
  readonly baselineDate: string;
  readonly thresholdPercent: number;
  readonly method: string;
  /** Differences between the two runs that make their numbers less comparable. */
  readonly warnings: readonly string[];
  readonly skipped: readonly { readonly key: string; readonly reason: string }[];
  /**
   * How far the ratio to the reference moved between the runs on block-sized payloads
   * (mean item ≥ 32 KiB), the figure least touched by the machine's drift.
   */
  readonly relativeDrift?: {
    readonly cases: number;
    readonly within10Percent: number;
    readonly medianPercent: number;
  };
  /**
   * The median `change` over every compared case: when most cases moved together, this is
   * the machine running faster or slower in one run's minutes (on this VM, up to ~3 %
   * overall and ~10 % on the thread-pool rows), not the code.
   */
  readonly medianChangePercent?: number;
}

/** A fork that lost a target: crashed, hung, or failed a request. */
export interface ForkFailure {
  readonly codec: string;
  readonly impl: string;
  readonly fork: number;
  readonly reason: string;
}

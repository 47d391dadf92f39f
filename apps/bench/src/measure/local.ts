// One target's cases timed in the current process, and how a fork builds its target: the
// part of forking that needs no Node APIs, so a browser page can run it too (browser.ts).
import type { AdapterModule, RawModule } from "@snappykit/core";
import { openTarget } from "@snappykit/workspace/targets";
import { adapterTarget, rawTarget, supports } from "../inputs/cases.js";
import { getOp, OPS } from "../inputs/ops.js";
import type { RowInputs, Target, TargetSpec } from "../model/case.js";
import type { Allocation, TimingOptions, Turn } from "../model/timing.js";
import { CaseTimer, type TimedCase } from "./run.js";

/** Build the target a spec describes (in the child, or in-process for `--forks 0`). */
export async function loadTarget(spec: TargetSpec): Promise<Target> {
  const mod = (await import(
    spec.entry.startsWith("file:") ? spec.entry : `file://${spec.entry}`
  )) as AdapterModule & RawModule;
  return targetOf(mod, spec);
}

/**
 * Build the target a spec describes from its module (the adapter's main entry, or its
 * `./raw` entry for a raw target), however that was imported.
 */
export async function targetOf(
  mod: Partial<AdapterModule & RawModule>,
  spec: TargetSpec,
): Promise<Target> {
  return spec.impl === "raw"
    ? rawTarget(spec.codec, await openTarget(mod, { impl: "raw" }, spec.entry))
    : adapterTarget(
        spec.codec,
        await openTarget(
          mod,
          { impl: "adapter", ...(spec.variant && { variant: spec.codec }) },
          spec.entry,
        ),
        spec.variant === true,
      );
}

/** Timing requests for one target's cases, by row index; a child process or this one. */
export interface CaseWorker {
  readonly spec: TargetSpec;
  /** Warm the row's case up; resolves to its batch size. */
  warm(row: number): Promise<number>;
  /** One turn of the row's case; the case's batches (ns per op) once it has them all. */
  sample(row: number): Promise<Turn>;
  allocation(row: number): Promise<Allocation>;
  close(): Promise<void>;
}

/** What a fork says of its target: its library and the ops it has (inputs/elsewhere.ts). */
export interface Described {
  readonly library: string;
  readonly ops: readonly string[];
}

/** The cases of one target, timed in the current process. */
export class LocalWorker implements CaseWorker {
  private readonly timers = new Map<number, CaseTimer>();

  private constructor(
    readonly spec: TargetSpec,
    private readonly target: Target,
    private readonly rows: readonly RowInputs[],
    private readonly timing: TimingOptions,
  ) {}

  static async start(
    spec: TargetSpec,
    rows: readonly RowInputs[],
    timing: TimingOptions,
  ): Promise<LocalWorker> {
    return new LocalWorker(spec, await loadTarget(spec), rows, timing);
  }

  /** Time `target`, already built from `spec`, on `rows` (a browser page's fork). */
  static of(
    spec: TargetSpec,
    target: Target,
    rows: readonly RowInputs[],
    timing: TimingOptions,
  ): LocalWorker {
    return new LocalWorker(spec, target, rows, timing);
  }

  private timer(row: number): CaseTimer {
    let t = this.timers.get(row);
    if (!t) {
      const r = this.rows[row];
      if (!r) throw new Error(`no row ${row}`);
      const c: TimedCase = {
        target: this.target,
        op: getOp(r.op),
        inputs: r.items,
        outputBytes: r.outputBytes,
        ...(this.spec.slowdown && { slowdown: this.spec.slowdown }),
      };
      t = new CaseTimer(c, this.timing);
      this.timers.set(row, t);
    }
    return t;
  }

  warm(row: number): Promise<number> {
    return this.timer(row).warm();
  }

  sample(row: number): Promise<Turn> {
    return this.timer(row).sample();
  }

  allocation(row: number): Promise<Allocation> {
    return this.timer(row).allocation();
  }

  describe(): Described {
    const { library } = this.target;
    return { library, ops: OPS.filter((op) => supports(op, this.target)).map((op) => op.id) };
  }

  /** The target's own call, untimed: the gate's, for a codec of another runtime. */
  call(method: "compress" | "uncompress", input: Uint8Array): Uint8Array {
    return this.target.backend[method](input);
  }

  async close(): Promise<void> {
    this.timers.clear();
  }
}

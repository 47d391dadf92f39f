// `--compare`: each case against a baseline report, classified slower / faster / no
// significant change. The test works on the forks: each run gives one median per fork,
// and the Mann–Whitney U test on them (as Go's benchstat does) says whether the case
// moved; the Hodges–Lehmann shift says by what factor, with its interval. Two things are
// tested per case: its time, and its time as a multiple of the reference's in the same fork
// (per-fork ratios). A whole run's machine offset moves every time alike and cancels in the
// ratios, so a planted 20 % ts slowdown flagged other codecs' times in 3 of 4 trials but not
// their ratios: the verdict is the ratio test's. The reference codec's own cases are
// divided by their row's other codecs instead (rowSpeeds), since judged on their times they
// were flagged whenever the machine moved as a whole. A run tests ~230 cases at once: at p ≤ 0.05 each, a dozen would "change" by chance, and two runs of
// one commit on this VM flagged 8.5 %. So the p-values go through Benjamini–Hochberg at a
// 5 % false-discovery rate. On an idle machine the test is sharp enough to see the VM
// itself speed up by a few % between runs, so a change also has to clear a noise
// threshold (`--threshold`, Criterion's "change within noise threshold"). Measured: two
// runs of one commit flag 0 of 208, 0 of 234 and 3 of 229 cases; a planted 20 % slowdown is
// found on every case whose forks separate, nothing else. Anything else is "no
// significant change" (benchstat's "~") or "within noise".
//
// Some cases run at one of two speeds for a process's whole life, and how many forks land
// on the slow one changes from run to run: snappy@7's raw blob compress ran ~10 µs or
// ~400 µs per fork, 3 of 13 forks slow in one run and 11 of 13 in the next, same commit. A
// test over all forks calls that a 35-fold slowdown. So when either run's forks split in
// two speeds (stats.ts's twoSpeedCut), the test compares the fast forks of both runs, and
// the entry counts the slow ones: reported, not tested, since their share is not stable
// between runs here. The ratio test looks for two speeds in the ratios themselves: with
// `--pin` the forks alternate CPUs that ran 1.6× apart on the loaded VM, which split every
// codec's times in two and left half the forks out of the ratio test as well, while the
// ratios, case and reference on one CPU, did not split (the planted-slowdown trials found
// 4 of 10 ts cases that way, 5-7 of 10 with the ratios on every fork).
import {
  BLOCK_SIZED_BYTES,
  type ChangeTest,
  type ComparisonEntry,
  type ComparisonInfo,
  type RatioChange,
  type Verdict,
} from "../model/compare.js";
import { ALPHA } from "../model/estimate.js";
import type { CaseResult, RelativeRow } from "../model/report.js";
import { forkValues } from "./results.js";
import {
  benjaminiHochberg,
  mannWhitney,
  medianOf,
  percentInterval,
  ratioToPercent,
  timedValues,
  twoSpeedCut,
} from "./stats.js";

/** What `compareCases` needs of a report: its cases and how they were measured. */
export interface ComparedRun {
  readonly mode: string;
  /** The codec its ratios divide by. */
  readonly reference: string;
  readonly timing: { readonly clock?: string; readonly forks?: number };
  readonly environment: {
    readonly date?: string;
    readonly node?: string;
    readonly cpu?: string;
    readonly cores?: number;
    readonly cpuIdle?: string;
    readonly runtime?: { readonly name: string; readonly version: string };
  };
  readonly cases: readonly CaseResult[];
  readonly relative?: readonly RelativeRow[];
  readonly payloads?: readonly {
    readonly name: string;
    readonly items: number;
    readonly bytes: number;
  }[];
}

export const COMPARE_METHOD = `two-sided Mann–Whitney U test on the fork medians (time) and on the per-fork ratios to the reference (ratio), each significant after Benjamini–Hochberg at a ${ALPHA * 100} % false-discovery rate over its family of tests and beyond the noise threshold; change = Hodges–Lehmann shift of the logs, with its Moses interval. The ratio is to the reference codec, and for the reference's own cases to the row's other codecs (per fork, the median of their times as multiples of their baseline medians); the verdict is the ratio test's wherever there is one`;

/** What differs between the runs' setups, each as a sentence for the reader. */
export function setupWarnings(baseline: ComparedRun, current: ComparedRun): string[] {
  const w: string[] = [];
  const diff = (what: string, a: unknown, b: unknown) => {
    if (a !== b) w.push(`${what} differs: baseline ${String(a)}, this run ${String(b)}`);
  };
  diff("mode", baseline.mode, current.mode);
  diff("clock", baseline.timing.clock ?? "wall", current.timing.clock ?? "wall");
  diff("forks", baseline.timing.forks, current.timing.forks);
  // What ran the forks (reports before --runtime: the bench's own Node).
  const runtime = (e: ComparedRun["environment"]) =>
    e.runtime ? `${e.runtime.name} ${e.runtime.version}` : `node ${e.node?.replace(/^v/, "")}`;
  diff("runtime", runtime(baseline.environment), runtime(current.environment));
  diff("CPU", baseline.environment.cpu, current.environment.cpu);
  diff("cores", baseline.environment.cores, current.environment.cores);
  // Without polling, thread hand-offs (async ops, GC helpers) cost a vCPU wake-up each.
  diff(
    "idle CPUs",
    baseline.environment.cpuIdle ?? "default",
    current.environment.cpuIdle ?? "default",
  );
  return w;
}

/** A test before the false-discovery control: its family decides what counts. */
type RawTest = Omit<ChangeTest, "significant" | "verdict">;

/** Forks a side a two-sided test at `alpha` needs before any result can be significant. */
export function forksToTest(alpha = ALPHA): number {
  let n = 1;
  while (mannWhitney(Array(n).fill(1), Array(n).fill(2), alpha)!.minP > alpha) n++;
  return n;
}

function test(baseline: readonly number[], current: readonly number[]): RawTest | undefined {
  const t = mannWhitney(baseline, current);
  if (!t) return undefined;
  return {
    change: ratioToPercent(t.ratio),
    ...(t.ci && { ci: percentInterval(t.ci) }),
    p: t.p,
    testable: t.minP <= ALPHA,
  };
}

/** What the reference codec's own cases are divided by (`RatioChange.reference`). */
export const OTHERS = "the row's other codecs";

/**
 * What the reference's own case (`b` in the baseline, `c` in this run) is divided by, per
 * fork of each run: the speed of its row, the median over the row's other codecs (adapter
 * cases both runs timed) of their time as a multiple of their baseline median, in units of
 * the reference's own baseline median so that its ratio reads ~1× there. A machine slower
 * for a whole run moves every codec and so the speed; one codec that changed does not move
 * a median of three. Undefined when the row has no other codec.
 */
function rowSpeeds(
  b: CaseResult,
  c: CaseResult,
  baseline: ComparedRun,
  current: ComparedRun,
): [number[], number[]] | undefined {
  const others = (r: ComparedRun) =>
    new Map(
      r.cases
        .filter(
          (x) =>
            x.impl === "adapter" && x.codec !== c.codec && x.payload === c.payload && x.op === c.op,
        )
        .map((x) => [x.codec, x]),
    );
  const [inBase, inCurrent] = [others(baseline), others(current)];
  const middle = (xs: readonly number[]) => (xs.length > 0 ? medianOf(xs) : Number.NaN);
  const scale = new Map(
    [...inBase]
      .filter(([codec]) => inCurrent.has(codec))
      .map(([codec, x]) => [codec, middle(timedValues(forkValues(x)))] as const)
      .filter(([, median]) => median > 0),
  );
  if (scale.size === 0) return undefined;
  const unit = middle(timedValues(forkValues(b)));
  const speeds = (own: CaseResult, row: Map<string, CaseResult>) =>
    forkValues(own).map(
      (_, i) =>
        unit *
        middle(
          [...scale]
            .map(([codec, median]) => (forkValues(row.get(codec)!)[i] ?? Number.NaN) / median)
            .filter((x) => x > 0),
        ),
    );
  return [speeds(b, inBase), speeds(c, inCurrent)];
}

/** Per-fork ratios case / reference, on the forks where both ran. */
function forkRatios(values: readonly number[], reference: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(values.length, reference.length); i++) {
    const [a, r] = [values[i]!, reference[i]!];
    if (a > 0 && r > 0) out.push(a / r);
  }
  return out;
}

/** Judge a family of tests: Benjamini–Hochberg over the testable ones, then the threshold. */
function judge<T extends RawTest>(
  tests: readonly T[],
  thresholdPercent: number,
): (T & ChangeTest)[] {
  const cut = benjaminiHochberg(
    tests.filter((t) => t.testable).map((t) => t.p),
    ALPHA,
  );
  return tests.map((t) => {
    const detected = t.testable && t.p <= cut;
    const significant = detected && Math.abs(t.change) >= thresholdPercent;
    const verdict: Verdict = significant
      ? t.change > 0
        ? "slower"
        : "faster"
      : detected
        ? "within noise"
        : "no significant change";
    return { ...t, significant, verdict };
  });
}

/** Compare `current` with `baseline` case by case (matched by case key). */
export function compareCases(
  baseline: ComparedRun,
  current: ComparedRun,
  thresholdPercent: number,
  baselineName: string,
): { entries: ComparisonEntry[]; info: ComparisonInfo } {
  const base = new Map(baseline.cases.map((c) => [c.key, c]));
  const refCase = (run: ComparedRun, c: CaseResult) =>
    run.cases.find(
      (x) =>
        x.codec === run.reference &&
        x.impl === "adapter" &&
        x.payload === c.payload &&
        x.op === c.op,
    );
  // Ratios mean the same only with the same reference in both runs.
  const sameReference = baseline.reference === current.reference;
  const seen = new Set<string>();
  const matched: {
    c: CaseResult;
    b: CaseResult;
    absolute: RawTest;
    ratio?: RawTest & Pick<RatioChange, "reference" | "base" | "current">;
    twoSpeeds?: ComparisonEntry["twoSpeeds"];
  }[] = [];
  const skipped: { key: string; reason: string }[] = [];
  for (const c of current.cases) {
    const b = base.get(c.key);
    if (!b) {
      skipped.push({ key: c.key, reason: "not in the baseline" });
      continue;
    }
    seen.add(c.key);
    // Same name, other bytes (regenerated fixtures): not the same measurement.
    if (b.bytes !== c.bytes || b.items !== c.items) {
      skipped.push({ key: c.key, reason: "payload bytes differ between the runs" });
      continue;
    }
    const [bv, cv] = [forkValues(b), forkValues(c)];
    const { baseline: before, current: now, twoSpeeds } = fastForks(bv, cv);
    const absolute = test(before, now);
    if (!absolute) {
      skipped.push({ key: c.key, reason: "no fork timed it in one of the runs" });
      continue;
    }
    const isReference = c.codec === current.reference && c.impl === "adapter";
    // The reference's own cases are divided by their row's speed instead (rowSpeeds): a
    // machine slower by 36-50 % for a whole run flagged every napi case of the row on its
    // time in the trials, while its ratios to the others held.
    const [divB, divC] = isReference
      ? (rowSpeeds(b, c, baseline, current) ?? [])
      : [refCase(baseline, b), refCase(current, c)].map((r) => r && forkValues(r));
    let ratio: (typeof matched)[number]["ratio"];
    if (sameReference && divB && divC) {
      // Two speeds are looked for in the ratios, not in the times: a fork whose CPU ran
      // slower (pinned forks alternate CPUs, 1.6× apart on a loaded VM) moves the case and the
      // reference alike, and its ratio is as good as any; a process of one codec stuck at
      // its slow speed moves the ratio alone.
      const [rb, rc] = [forkRatios(bv, divB), forkRatios(cv, divC)];
      const fast = fastForks(rb, rc);
      const t = test(fast.baseline, fast.current);
      if (t) {
        ratio = {
          ...t,
          reference: isReference ? OTHERS : current.reference,
          base: medianOf(fast.baseline),
          current: medianOf(fast.current),
        };
      }
    }
    matched.push({ c, b, absolute, ...(ratio && { ratio }), ...(twoSpeeds && { twoSpeeds }) });
  }
  for (const b of baseline.cases) {
    if (!seen.has(b.key)) skipped.push({ key: b.key, reason: "not in this run" });
  }
  const absolutes = judge(
    matched.map((m) => m.absolute),
    thresholdPercent,
  );
  const withRatio = matched.filter((m) => m.ratio);
  const ratios = new Map(
    judge(
      withRatio.map((m) => m.ratio!),
      thresholdPercent,
    ).map((r, i) => [withRatio[i]!, r]),
  );
  const entries = matched.map((m, i): ComparisonEntry => {
    const absolute = absolutes[i]!;
    const ratio = ratios.get(m);
    const judged = ratio ?? absolute;
    return {
      key: m.c.key,
      codec: m.c.codec,
      impl: m.c.impl,
      payload: m.c.payload,
      op: m.c.op,
      baseP50: m.b.p50,
      p50: m.c.p50,
      absolute,
      ...(ratio && { ratio }),
      judgedBy: ratio ? "ratio" : "absolute",
      significant: judged.significant,
      verdict: judged.verdict,
      ...(m.twoSpeeds && { twoSpeeds: m.twoSpeeds }),
    };
  });
  const warnings = setupWarnings(baseline, current);
  if (!sameReference) {
    warnings.push(
      `reference differs (baseline ${baseline.reference}, this run ${current.reference}): every case is judged on its absolute time`,
    );
  }
  return {
    entries,
    info: {
      baseline: baselineName,
      baselineDate: baseline.environment.date ?? "unknown",
      thresholdPercent,
      method: COMPARE_METHOD,
      warnings,
      skipped,
      testable: entries.filter((e) => (e.ratio ?? e.absolute).testable).length,
      forksToTest: forksToTest(),
      ...relativeDrift(baseline, current),
      ...(entries.length > 0 && {
        medianChangePercent: medianOf(entries.map((e) => e.absolute.change)),
      }),
    },
  };
}

/**
 * The forks to test: all of them, or, when either run's forks split in two speeds, those
 * below the lower cut in each run (if each keeps at least two; otherwise the speed itself
 * changed, and all forks are tested).
 */
function fastForks(
  baseline: readonly number[],
  current: readonly number[],
): {
  baseline: readonly number[];
  current: readonly number[];
  twoSpeeds?: ComparisonEntry["twoSpeeds"];
} {
  const cuts = [twoSpeedCut(baseline), twoSpeedCut(current)].filter((x) => x !== undefined);
  if (cuts.length === 0) return { baseline, current };
  const cut = Math.min(...cuts);
  const [a, b] = [timedValues(baseline), timedValues(current)];
  const [fastA, fastB] = [a.filter((x) => x < cut), b.filter((x) => x < cut)];
  if (fastA.length < 2 || fastB.length < 2) return { baseline, current };
  return {
    baseline: fastA,
    current: fastB,
    twoSpeeds: {
      cut,
      baseSlow: a.length - fastA.length,
      baseForks: a.length,
      slow: b.length - fastB.length,
      forks: b.length,
    },
  };
}

/** |ratio-to-reference change| between the runs on block-sized rows (see ComparisonInfo). */
function relativeDrift(
  baseline: ComparedRun,
  current: ComparedRun,
): Pick<ComparisonInfo, "relativeDrift"> {
  const block = new Set(
    (current.payloads ?? [])
      .filter((p) => p.bytes / Math.max(1, p.items) >= BLOCK_SIZED_BYTES)
      .map((p) => p.name),
  );
  const moves: number[] = [];
  for (const row of current.relative ?? []) {
    if (!block.has(row.payload)) continue;
    const before = baseline.relative?.find(
      (r) => r.payload === row.payload && r.op === row.op && r.reference === row.reference,
    );
    for (const cell of row.cells) {
      const old = before?.cells.find((x) => x.codec === cell.codec)?.ratio;
      if (cell.codec === row.reference || cell.ratio === undefined || old === undefined) continue;
      moves.push(Math.abs(cell.ratio / old - 1) * 100);
    }
  }
  if (moves.length === 0) return {};
  moves.sort((a, b) => a - b);
  return {
    relativeDrift: {
      cases: moves.length,
      within10Percent: moves.filter((m) => m <= 10).length,
      medianPercent: moves[(moves.length - 1) >> 1]!,
    },
  };
}

/** Significant slowdowns (beyond the noise threshold) by each case's judged test: what `--fail-on-regression` fails on. */
export function regressions(entries: readonly ComparisonEntry[]): ComparisonEntry[] {
  return entries.filter((e) => e.verdict === "slower");
}

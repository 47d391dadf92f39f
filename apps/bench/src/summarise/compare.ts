// `--compare`: each case against a baseline report, classified slower / faster / no
// significant change. The test works on the forks: each run gives one median per fork,
// and the Mann–Whitney U test on them (as Go's benchstat does) says whether the case
// moved; the Hodges–Lehmann shift says by what factor, with its interval. A run tests
// ~230 cases at once: at p ≤ 0.05 each, a dozen would "change" by chance, and two runs of
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
// between runs here.
import { BLOCK_SIZED_BYTES, type ComparisonEntry, type ComparisonInfo } from "../model/compare.js";
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
  readonly timing: { readonly clock?: string; readonly forks?: number };
  readonly environment: {
    readonly date?: string;
    readonly node?: string;
    readonly cpu?: string;
    readonly cores?: number;
    readonly cpuIdle?: string;
  };
  readonly cases: readonly CaseResult[];
  readonly relative?: readonly RelativeRow[];
  readonly payloads?: readonly {
    readonly name: string;
    readonly items: number;
    readonly bytes: number;
  }[];
}

export const COMPARE_METHOD = `two-sided Mann–Whitney U test on the fork medians, significant after Benjamini–Hochberg at a ${ALPHA * 100} % false-discovery rate over all cases compared and beyond the noise threshold; change = Hodges–Lehmann shift of the log times, with its Moses interval`;

/** What differs between the runs' setups, each as a sentence for the reader. */
export function setupWarnings(baseline: ComparedRun, current: ComparedRun): string[] {
  const w: string[] = [];
  const diff = (what: string, a: unknown, b: unknown) => {
    if (a !== b) w.push(`${what} differs: baseline ${String(a)}, this run ${String(b)}`);
  };
  diff("mode", baseline.mode, current.mode);
  diff("clock", baseline.timing.clock ?? "wall", current.timing.clock ?? "wall");
  diff("forks", baseline.timing.forks, current.timing.forks);
  diff("Node version", baseline.environment.node, current.environment.node);
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

/** Compare `current` with `baseline` case by case (matched by case key). */
export function compareCases(
  baseline: ComparedRun,
  current: ComparedRun,
  thresholdPercent: number,
  baselineName: string,
): { entries: ComparisonEntry[]; info: ComparisonInfo } {
  const base = new Map(baseline.cases.map((c) => [c.key, c]));
  const seen = new Set<string>();
  const tested: (Omit<ComparisonEntry, "significant" | "verdict"> & { testable: boolean })[] = [];
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
    const { baseline: before, current: now, twoSpeeds } = fastForks(forkValues(b), forkValues(c));
    const t = mannWhitney(before, now);
    if (!t) {
      skipped.push({ key: c.key, reason: "no fork timed it in one of the runs" });
      continue;
    }
    const change = ratioToPercent(t.ratio);
    const testable = t.minP <= ALPHA;
    tested.push({
      key: c.key,
      codec: c.codec,
      impl: c.impl,
      payload: c.payload,
      op: c.op,
      baseP50: b.p50,
      p50: c.p50,
      change,
      ...(t.ci && {
        ci: percentInterval(t.ci),
      }),
      p: t.p,
      ...(twoSpeeds && { twoSpeeds }),
      testable,
    });
    if (!testable) {
      skipped.push({
        key: c.key,
        reason: `too few ${twoSpeeds ? "fast " : ""}forks to test (${before.length} and ${now.length}: the smallest p-value possible is ${t.minP.toFixed(2)})`,
      });
    }
  }
  for (const b of baseline.cases) {
    if (!seen.has(b.key)) skipped.push({ key: b.key, reason: "not in this run" });
  }
  const cut = benjaminiHochberg(
    tested.filter((e) => e.testable).map((e) => e.p),
    ALPHA,
  );
  const entries = tested.map(({ testable, ...e }): ComparisonEntry => {
    const detected = testable && e.p <= cut;
    const significant = detected && Math.abs(e.change) >= thresholdPercent;
    return {
      ...e,
      significant,
      verdict: significant
        ? e.change > 0
          ? "slower"
          : "faster"
        : detected
          ? "within noise"
          : "no significant change",
    };
  });
  return {
    entries,
    info: {
      baseline: baselineName,
      baselineDate: baseline.environment.date ?? "unknown",
      thresholdPercent,
      method: COMPARE_METHOD,
      warnings: setupWarnings(baseline, current),
      skipped,
      ...relativeDrift(baseline, current),
      ...(entries.length > 0 && { medianChangePercent: medianOf(entries.map((e) => e.change)) }),
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

/** Significant slowdowns (beyond the noise threshold): what `--fail-on-regression` fails on. */
export function regressions(entries: readonly ComparisonEntry[]): ComparisonEntry[] {
  return entries.filter((e) => e.verdict === "slower");
}

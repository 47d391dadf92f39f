// `bench merge`: several bench.json side by side. Times from different machines cannot be tested
// against each other, but each run's order of the codecs can: within a run, two codecs of a
// row were timed in the same forks, so their per-fork ratio has an interval. The runs agree
// on a case when no other codec of its row is clearly faster in one run and clearly slower in
// another.
import {
  MERGE_SCHEMA,
  type MergedCase,
  type MergedCell,
  type MergedRun,
  type MergeReport,
} from "../model/merge.js";
import { type BenchReport, type CaseResult, runtimeOf } from "../model/report.js";
import { caseRatio, rowKey, rowsOf } from "./results.js";
import { sideOfOne } from "./stats.js";

export const MERGE_METHOD =
  "a case agrees when no other codec of its row (payload × op) is clearly faster than it in one run and clearly slower in another, " +
  "each run judging the pair by its per-fork ratio (both timed in the same forks) with the ratio's interval clear of 1; " +
  "ratios divide by each run's own reference";

const RUNTIME_NAMES: Record<string, string> = { bun: "Bun", deno: "Deno", browser: "Chromium" };

/** "Node 24.21.0 · Linux x64 · AMD EPYC × 2" for a report. */
export function runLabel(report: BenchReport): string {
  const e = report.environment;
  const r = runtimeOf(e);
  const runtime = `${r.name.startsWith("node") ? "Node" : (RUNTIME_NAMES[r.name] ?? r.name)} ${r.version.replace(/^v/, "")}`;
  return `${runtime} · ${e.os.split(" ")[0]} ${e.arch} · ${e.cpu} × ${e.cores}`;
}

/** -1: a clearly faster than b in this run, 1: clearly slower, 0: not told apart. */
const order = (a: CaseResult, b: CaseResult) => sideOfOne(caseRatio(a, b).ci);

/** Merge `reports` (read from `files`) into one report. */
export function mergeReports(
  reports: readonly BenchReport[],
  files: readonly string[],
  command: string,
): MergeReport {
  const labels = reports.map(runLabel);
  const runs: MergedRun[] = reports.map((r, i) => ({
    // Two runs of one machine and runtime: tell them apart by their file.
    label:
      labels.filter((l) => l === labels[i]).length > 1 ? `${labels[i]} (${files[i]})` : labels[i]!,
    file: files[i]!,
    command: r.command,
    date: r.environment.date,
    commit: r.environment.commit,
    runtime: runtimeOf(r.environment),
    machine: `${r.environment.cpu} × ${r.environment.cores}, ${r.environment.memoryGiB} GiB, ${r.environment.os} ${r.environment.arch}`,
    reference: r.reference,
    mode: r.mode,
    forks: r.timing.forks,
  }));
  const rows = reports.map((r) => rowsOf(r.cases));
  // Every adapter case of any run, in the first run's order, then the others'.
  const seen = new Map<string, { codec: string; payload: string; op: string }>();
  for (const r of reports) {
    for (const c of r.cases) {
      if (c.impl === "adapter") seen.set(`${c.codec}\u0000${rowKey(c)}`, c);
    }
  }
  const cases: MergedCase[] = [...seen.values()].map(({ codec, payload, op }) => {
    const cells = rows.map((row, i): MergedCell | null => {
      const cs = row.get(rowKey({ payload, op })) ?? [];
      const c = cs.find((x) => x.codec === codec);
      if (!c) return null;
      const rel = reports[i]!.relative.find((x) => x.payload === payload && x.op === op);
      const cell = rel?.cells.find((x) => x.codec === codec);
      return {
        p50: c.p50,
        ...(c.ci && { ci: c.ci }),
        ...(cell?.ratio !== undefined && { ratio: cell.ratio }),
        ...(cell?.ci && { ratioCi: cell.ci }),
        rank: 1 + cs.filter((x) => x.p50 < c.p50).length,
        fastest: rel?.fastest.includes(codec) ?? false,
      };
    });
    const swapsWith = new Set<string>();
    const sides = rows.map((row) => {
      const cs = row.get(rowKey({ payload, op })) ?? [];
      const c = cs.find((x) => x.codec === codec);
      return new Map(c ? cs.filter((x) => x !== c).map((x) => [x.codec, order(c, x)]) : []);
    });
    for (const a of sides) {
      for (const b of sides) {
        for (const [other, side] of a)
          if (side !== 0 && b.get(other) === -side) swapsWith.add(other);
      }
    }
    return {
      codec,
      payload,
      op,
      cells,
      agrees: swapsWith.size === 0,
      swapsWith: [...swapsWith].sort(),
    };
  });
  return {
    schema: MERGE_SCHEMA,
    command,
    date: new Date().toISOString(),
    runs,
    cases,
    method: MERGE_METHOD,
  };
}

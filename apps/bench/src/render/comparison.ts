// `--compare` as the renderers show it: what the comparison found, in sentences and as a
// table of every case, its time's change and its ratio's change, and the verdict.
import type { ChangeTest, ComparisonEntry, RatioChange } from "../model/compare.js";
import type { BenchReport } from "../model/report.js";
import { reportLevels } from "./levels.js";
import { formatPercent, formatRatio, formatTime } from "./numbers.js";
import type { Table } from "./table.js";
import { c } from "./tables.js";

/** "+20 % [+12, +31]". */
const formatChange = (t: ChangeTest) =>
  t.ci
    ? `${formatPercent(t.change)} [${formatPercent(t.ci.low)}, ${formatPercent(t.ci.high)}]`
    : formatPercent(t.change);

/** The verdict, by which test, and the slow forks of a two-speed case. */
function verdictText(e: ComparisonEntry): string {
  const by = e.judgedBy === "ratio" ? "ratio" : "time";
  const speeds = e.twoSpeeds
    ? `, fast forks (slow: ${e.twoSpeeds.baseSlow}/${e.twoSpeeds.baseForks} → ${e.twoSpeeds.slow}/${e.twoSpeeds.forks})`
    : "";
  return `${e.verdict} (${by})${speeds}`;
}

/** "0.41× → 0.49×"; the reference's own rows say what they were divided by. */
function ratioCell(r: RatioChange, reference: string): string {
  const values = `${formatRatio(r.base)} → ${formatRatio(r.current)}`;
  return r.reference === reference ? values : `÷ ${r.reference}: ${values}`;
}

/** Per-case change against the baseline: significant ones first, slowest first. */
export function comparisonTable(report: BenchReport): Table | undefined {
  const entries = report.comparison;
  if (!entries) return undefined;
  const judged = (e: ComparisonEntry) => (e.ratio ?? e.absolute).change;
  const rows = [...entries].sort(
    (a, b) => Number(b.significant) - Number(a.significant) || judged(b) - judged(a),
  );
  const level = reportLevels(report).changes;
  return {
    headers: [
      "codec",
      "payload",
      "op",
      "baseline p50",
      "p50",
      `time change (${level} interval)`,
      `÷ ${report.reference}: baseline → now`,
      "ratio change",
      "verdict (by)",
    ],
    align: ["l", "l", "l", "r", "r", "r", "r", "r", "l"],
    rows: rows.map((r) => [
      c(r.impl === "raw" ? `${r.codec} (raw)` : r.codec),
      c(r.payload),
      c(r.op),
      c(formatTime(r.baseP50)),
      c(formatTime(r.p50)),
      c(formatChange(r.absolute), r.judgedBy === "absolute" && r.significant),
      c(r.ratio ? ratioCell(r.ratio, report.reference) : "—"),
      c(r.ratio ? formatChange(r.ratio) : "—", r.judgedBy === "ratio" && r.significant),
      c(verdictText(r), r.verdict === "slower"),
    ]),
  };
}

/** "0 of 42 cases testable (needs ≥ 4 forks a side)", or undefined when some are. */
export function untestable(report: BenchReport): string | undefined {
  const info = report.compared;
  if (!info || info.testable > 0) return undefined;
  return `0 of ${report.comparison?.length ?? 0} cases testable (needs ≥ ${info.forksToTest} forks a side)`;
}

/** What a comparison found, in sentences (Markdown and terminal alike). */
export function comparisonSummary(report: BenchReport): string[] {
  const entries = report.comparison ?? [];
  const info = report.compared;
  if (!info) return [];
  const count = (verdict: string) => entries.filter((e) => e.verdict === verdict).length;
  const byRatio = entries.filter((e) => e.judgedBy === "ratio").length;
  const byOthers = entries.filter((e) => e.ratio && e.ratio.reference !== report.reference).length;
  const nothing = untestable(report);
  const lines = [
    nothing
      ? `Baseline \`${info.baseline}\` (${info.baselineDate}): nothing could be tested: ${nothing}, so no case can be called slower or faster.`
      : `Baseline \`${info.baseline}\` (${info.baselineDate}). ${entries.length} cases compared, ` +
        `${info.testable} of them testable (≥ ${info.forksToTest} forks a side): ` +
        `${count("slower")} significantly slower, ${count("faster")} significantly faster, ` +
        `${count("within noise")} within noise (a detected change under the ${info.thresholdPercent} % threshold, \`--threshold\`), ` +
        `${count("no significant change")} no significant change.`,
    `Verdicts: ${byRatio - byOthers} cases by the change of their ratio to ${report.reference} (per fork, in the same turns, so a whole run's machine offset cancels), ` +
      `${byOthers} of ${report.reference}'s own by their ratio to the row's other codecs (per fork, the median of their times as multiples of their baseline medians), ` +
      `${entries.length - byRatio} by their time (rows with nothing to divide by). ` +
      `Method: ${info.method}. \`--fail-on-regression\` fails on a significant slowdown.`,
  ];
  const d = info.relativeDrift;
  if (d) {
    lines.push(
      `Ratio to the reference on block-sized payloads moved ≤ 10 % in ${d.within10Percent} of ${d.cases} cases (median ${d.medianPercent.toFixed(1)} %).`,
    );
  }
  if (info.medianChangePercent !== undefined) {
    lines.push(
      `The median case's time moved ${formatPercent(info.medianChangePercent)}: when most cases moved together, that is the machine between the two runs, not the code (the ratios to the reference cancel it).`,
    );
  }
  const twoSpeeds = entries.filter((e) => e.twoSpeeds).length;
  if (twoSpeeds > 0) {
    lines.push(
      `${twoSpeeds} cases ran at one of two speeds per fork in a run: they were tested on their fast forks, and the table counts the slow ones, which are not tested (their share moves between runs of one commit).`,
    );
  }
  for (const w of info.warnings) lines.push(`Warning: ${w}.`);
  const skipped = new Map<string, string[]>();
  for (const s of info.skipped) skipped.set(s.reason, [...(skipped.get(s.reason) ?? []), s.key]);
  for (const [reason, keys] of skipped) {
    lines.push(
      `Not compared (${reason}): ${keys.length <= 6 ? keys.join(", ") : `${keys.slice(0, 6).join(", ")} and ${keys.length - 6} more`}.`,
    );
  }
  return lines;
}

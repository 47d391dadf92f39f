// The generated blocks about the runs themselves: which committed run took how long where
// (bench-runs), what changed in the packages each report measured since (report-status), and
// what the `--compare` trials flagged (trials).
import { existsSync } from "node:fs";
import { join, posix } from "node:path";
import { reportStatus } from "@snappykit/workspace/environment";
import { formatDuration, markdownTable } from "@snappykit/workspace/format";
import { day, machine, short, timedIn } from "./format.js";
import { REPORTS } from "./sources.js";
import { REGENERATE } from "./stale.js";

const md = (file) => file.replace(/json$/, "md");

export const RUN_SECTIONS = {
  /** How long the committed runs took: the payload run, the sweep and the soak. */
  "bench-runs"(context, _args, at) {
    const runs = [
      [context.bench, REPORTS.bench],
      [context.sweep, REPORTS.sweep],
      [context.soak, REPORTS.soak],
    ];
    return markdownTable(
      ["run", "took", "date", "commit", "machine", "report"],
      ["l", "r", "l", "l", "l", "l"],
      runs.map(([r, path]) => [
        `\`${r.command}\``,
        formatDuration(r.durationMs),
        day(r.environment.date),
        short(r.environment.commit),
        `${machine(r.environment)}, ${timedIn(r.environment)}`,
        at.link(path.replace(/json$/, "md")),
      ]),
    );
  },

  /** The `--compare` trials (apps/bench/scripts/trials.mjs): what each run flagged. */
  trials(context) {
    const t = context.trials;
    if (!t)
      throw new Error(
        `no ${REPORTS.trials}: run \`npm run bench:trials\`, then \`npm run docs -- --adopt\``,
      );
    const e = t.environment;
    const load = (l) =>
      l?.start ? `${l.start[0].toFixed(1)} → ${l.end?.[0]?.toFixed(1) ?? "?"}` : "not recorded";
    // In a planted run the slowed codec's cases should be flagged slower; in a rerun every
    // flagged case is a false alarm, the slowed codec's included.
    const planted = t.planted.map((r) => [
      r.name,
      `${r.slowedFlaggedSlower} of ${r.slowedCases}`,
      `${r.othersFlagged} of ${r.cases - r.slowedCases}`,
      r,
    ]);
    const reruns = t.reruns.map((r) => [r.name, "—", `${r.flagged.length} of ${r.cases}`, r]);
    // Trials before adaptive forks did not record them.
    const forks = (f) => (f ? (f[0] === f[1] ? `${f[0]}` : `${f[0]}–${f[1]}`) : "—");
    const rows = [...planted, ...reruns].map(([name, slowed, others, r]) => [
      name,
      slowed,
      others,
      `${r.testable} of ${r.cases}`,
      forks(r.forks),
      load(r.load),
    ]);
    return [
      `\`${t.command}\` on ${day(e.date)} at ${short(e.commit)}, ${machine(e)}, ${timedIn(e)};`,
      `the baseline's load average ${load(t.base.load)} (1 min, start → end, ${e.load?.cores ?? "?"} cores)${t.base.forks ? `, ${forks(t.base.forks)} forks a case` : ""}.`,
      "",
      markdownTable(
        [
          "run (against the baseline)",
          `${t.slowed.codec} cases flagged slower`,
          "other cases flagged (rerun: any)",
          "cases testable",
          "forks",
          "load average",
        ],
        ["l", "r", "r", "r", "r", "l"],
        rows,
      ),
    ].join("\n");
  },

  /**
   * Per committed report, what changed since it was measured: a figure of a report with
   * changes listed is stale until the report is made again (a release refuses it).
   */
  "report-status"(context, _args, at) {
    const rows = reportStatus(context.root).map(({ file, date, commit, changed, unknown }) => {
      const since = unknown
        ? `unknown: it ${unknown}`
        : changed.length === 0
          ? "nothing it measured"
          : changed
              .map((c) => {
                const n = c.commits.length;
                return `${c.dir}: ${n} commit${n === 1 ? "" : "s"} (${c.commits.map((l) => `\`${l.split(" ")[0]}\``).join(", ")})`;
              })
              .join("; ");
      return [
        at.link(
          existsSync(join(context.root, md(file))) ? md(file) : file,
          posix.basename(file, ".json"),
        ),
        date ? day(date) : "—",
        commit ? short(commit) : "—",
        since,
        changed.length > 0 || unknown ? `\`${REGENERATE[file] ?? "?"}\`` : "",
      ];
    });
    return markdownTable(
      ["report", "measured", "commit", "changed since", "to measure again"],
      ["l", "l", "l", "l", "l"],
      rows,
    );
  },
};

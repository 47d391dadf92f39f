// soak.md and the soak's terminal table: one row per codec × scenario, and which codec's RSS
// keeps growing.
import { formatBytes } from "@snappykit/workspace/format";
import { MIB, type SoakReport } from "../model/soak.js";
import { markdownTable, type Table, textTable, type View } from "./table.js";
import { loadWarning, runLine } from "./text.js";

const mib = (b: number) => (b > 0 ? `${(b / MIB).toFixed(0)} MiB` : "—");
const rate = (x: number) =>
  Number.isFinite(x) ? `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}` : "n/a";

/** One row per codec × scenario. */
export function soakTable(report: SoakReport): Table {
  return {
    headers: [
      "codec",
      "scenario",
      "ops/s",
      "round p50 / max",
      "RSS start",
      "warm",
      "peak",
      "end",
      "after GC",
      "rise",
      "slope MiB/min (2nd half)",
      "GC p99 / max",
      "grows",
    ],
    align: ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "l"],
    rows: report.rows.map((r) => [
      { text: r.codec },
      { text: r.scenario },
      {
        text:
          r.opsPerSec >= 100
            ? Math.round(r.opsPerSec).toLocaleString("en-US")
            : r.opsPerSec.toFixed(2),
      },
      {
        text:
          r.roundMedianMs === undefined
            ? "—"
            : `${r.roundMedianMs.toFixed(0)} / ${r.roundMaxMs!.toFixed(0)} ms`,
      },
      { text: mib(r.rssStart) },
      { text: mib(r.rssWarm) },
      { text: mib(r.rssPeak) },
      { text: mib(r.rssEnd) },
      { text: mib(r.rssAfterGc) },
      { text: Number.isFinite(r.rssRise) ? `${rate(r.rssRise / MIB)} MiB` : "n/a" },
      { text: `${rate(r.slope)} (${rate(r.slopeSecondHalf)})` },
      { text: `${r.gcP99.toFixed(1)} / ${r.gcMax.toFixed(1)} ms` },
      { text: r.grows ? "YES" : Number.isFinite(r.rssRise) ? "no" : "n/a", strong: r.grows },
    ]),
  };
}

/** soak.md. */
export function renderSoakMarkdown(report: SoakReport): string {
  const e = report.environment;
  const s = report.settings;
  const growing = report.rows.filter((r) => r.grows);
  return `${[
    "# Soak: memory under sustained load",
    "",
    runLine(report.command, e, `${report.mode} mode`, report.durationMs),
    "",
    `Every codec runs each scenario in a fresh process; RSS is sampled every ${s.sampleMs} ms, GC pauses come from \`perf_hooks\` ("gc" entries).`,
    "",
    `- **gossip** (${s.gossipSeconds} s): per 100 messages ${s.gossipMix.map(([n, k]) => `${k} ${n}`).join(", ")}; each message is decoded (${report.gateReference}'s compressed bytes) and encoded; ops/s = messages per second. The loop yields to the event loop about every millisecond, as a node's message handlers do.`,
    `- **big-blob** (napi-rs/snappy #323): compress and uncompress ${formatBytes(s.blobBytes)} (${s.blobData}), ${s.blobRounds} rounds, an event-loop turn between rounds; ops/s = rounds per second.`,
    `- Peak RSS is the larger of the samples and the process's getrusage peak under load (not while loading); "warm" is RSS at the end of the warm-up; "after GC" is RSS after two forced full GCs at the end (what the process could give back).`,
    `- Slopes are least-squares fits of RSS over time after the warm-up (and over the second half); for the big blob over the RSS after each round. Rule: ${s.rule}.`,
    "",
    markdownTable(soakTable(report)),
    "",
    growing.length === 0
      ? "No codec's RSS keeps growing by the rule in either scenario."
      : `RSS keeps growing: ${growing.map((r) => `**${r.codec}** (${r.scenario})`).join(", ")}.`,
    ...(report.failures.length > 0
      ? [
          "",
          "Failed runs:",
          ...report.failures.map((f) => `- ${f.codec} ${f.scenario}: ${f.reason}`),
        ]
      : []),
  ].join("\n")}\n`;
}

/** The terminal's: the table, then which codec's RSS keeps growing. */
export function renderSoakTerminal(report: SoakReport, { colour }: View): string {
  const growing = report.rows.filter((r) => r.grows);
  const warning = loadWarning(report.environment);
  return `${warning ? `${warning}\n` : ""}${textTable(soakTable(report), colour)}\n${
    growing.length === 0
      ? "no codec's RSS keeps growing (rule: see soak.md)"
      : `RSS keeps growing: ${growing.map((r) => `${r.codec} (${r.scenario})`).join(", ")}`
  }`;
}

// The Markdown report: what a client team pastes into a PR description.
import { formatDuration } from "@snappykit/workspace/format";
import type { BenchReport, SafetySection } from "../model/report.js";
import { comparisonSummary, comparisonTable } from "./comparison.js";
import { reportLevels } from "./levels.js";
import { REQRESP_METHOD, reqrespAnswer, reqrespTable } from "./reqresp.js";
import { markdownTable } from "./table.js";
import {
  allocationTable,
  codecTable,
  overheadTable,
  payloadTable,
  relativeTable,
  runtimeTable,
  sizeTable,
  speedTable,
  spreadTable,
  unavailableTable,
} from "./tables.js";
import { forksText, formatRuntime, headline, loadWarning } from "./text.js";

/** Render the whole report as Markdown. */
export function renderMarkdown(report: BenchReport): string {
  const out: string[] = [];
  const levels = reportLevels(report);
  const section = (title: string, ...body: string[]) => out.push(`## ${title}`, "", ...body, "");

  out.push("# Snappy for JavaScript: snappykit bench", "", headline(report), "");
  const warning = loadWarning(report.environment);
  if (warning) out.push(`> ${warning}`, "");
  out.push(
    `Reference codec: **${report.reference}**. Cross-compatibility gate passed: ` +
      `${report.gateChecks} round trips, every codec's output decoded by the reference and ` +
      "the reference's output by every codec, byte-exactly.",
    "",
  );

  section(
    `Relative to ${report.reference}`,
    `Each codec's time per op as a multiple of **${report.reference}**'s, measured in the same ` +
      "forks' interleaved turns (so the machine's drift cancels), with its interval over the forks " +
      `(${levels.ratios}: the level order statistics reach with ${forksText(report)}). ` +
      "Below 1× is faster. **Bold** = fastest, or not distinguishable from the fastest. " +
      `Ops ${report.reference} does not offer are in the speed table only.`,
    "",
    markdownTable(relativeTable(report)),
  );
  section(
    "Speed: time per op",
    "One op processes every item of the payload. `uncompress` rows all decode the " +
      `compressed bytes of ${report.gateReference}, so only the decoder differs. Each figure is the ` +
      `median of the fork medians (n = ${forksText(report)}) ± half the width of its ` +
      `${levels.cases} interval (the level order statistics of that many forks reach). **Bold** = fastest, or not distinguishable from it. ` +
      "`-async` rows are the thread-pool API, awaited item by item (always wall time). " +
      (report.timing.clock === "cpu"
        ? "Sync rows are process CPU time (`--clock cpu`), not wall time."
        : "Times are wall time."),
    "",
    markdownTable(speedTable(report)),
  );
  section(
    "Compressed size",
    "Compressed bytes (ratio = uncompressed / compressed, higher is smaller) of each " +
      "encoder. **Bold** = smallest.",
    "",
    markdownTable(sizeTable(report)),
  );
  section(
    "Allocation per op",
    "Bytes allocated by one op, as `JS heap / external`: JS heap is V8's used heap " +
      "and malloced memory, external is Buffer/ArrayBuffer backing stores, where " +
      "output bytes live and which the JS heap figure does not see. Median of single ops, " +
      "each after two minor GCs (the counterpart of JMH's `-prof gc` B/op). **Bold** = least.",
    "",
    markdownTable(allocationTable(report)),
  );
  const framed = reqrespTable(report);
  if (framed.rows.length > 0) {
    section(
      "Req/resp: framed implementations",
      REQRESP_METHOD,
      "",
      markdownTable(framed),
      "",
      reqrespAnswer(report).join(" "),
    );
  }
  if (report.overhead.length > 0) {
    section(
      "Adapter overhead",
      "Each adapter's library called directly (`createRaw`: no guards, only the " +
        "conversions it cannot work without) against the same library through the " +
        "adapter, each in its own processes, paired fork by fork. The difference is what " +
        `input checks, error mapping and copies cost; "within noise" when its ${levels.overhead} ` +
        "interval includes zero. **Bold** = an overhead the interval supports. A negative " +
        "overhead is an adapter calling its library with settings that beat the " +
        "library's defaults, which the direct call keeps (each adapter's README says " +
        "which).",
      "",
      markdownTable(overheadTable(report)),
    );
  }
  const runtimes = runtimeTable(report);
  if (runtimes) {
    section(
      "Runtimes",
      "The same cases timed in each runtime (`pnpm bench --runtime <node|bun|deno|browser>`), " +
        `for the codecs that ran in all of them: median ± interval over forks (this run: ${levels.cases}; a fork is a ` +
        "process, or a Chromium page). Each column is the latest report of its runtime in this " +
        "folder layout, so they come from separate runs: read differences smaller than the " +
        "intervals as no significant difference.",
      "",
      markdownTable(runtimes),
    );
  }
  const cmp = comparisonTable(report);
  if (cmp && report.compared) {
    section("Compared with baseline", comparisonSummary(report).join("\n"), "", markdownTable(cmp));
  }
  section(
    "Spread",
    "Each sample is the mean op time of one batch (batch = ops between event-loop " +
      "turns, sized to ~2 ms and ≤ 4 MiB of output); every batch counts. p50 is the median of each fork's median batch, its interval the " +
      "order-statistic interval of that median; p75…max pool every batch of every fork.",
    "",
    "<details><summary>p50, p75, p99, min, max, samples per case</summary>",
    "",
    markdownTable(spreadTable(report)),
    "",
    "</details>",
  );
  section("Payloads", markdownTable(payloadTable(report)));
  section(
    "Codecs",
    markdownTable(codecTable(report)),
    "",
    report.unavailable.length === 0
      ? "Every adapter in the workspace loaded."
      : `Unavailable (not measured):\n\n${markdownTable(unavailableTable(report))}`,
  );
  section("Safety on hostile input", safetyText(report.safety));
  const e = report.environment;
  section(
    "Environment",
    [
      `- ${formatRuntime(e)}, ${e.mitata ? `${e.mitata}, ` : ""}--expose-gc: ${e.exposeGc ? "yes" : "no"}`,
      ...(e.glibcTunables ? [`- Forks' malloc: \`GLIBC_TUNABLES=${e.glibcTunables}\``] : []),
      `- Idle CPUs while timing: ${e.cpuIdle === "poll" ? "polling (`/dev/cpu_dma_latency` held at 0 µs)" : (e.cpuIdle ?? "default")}`,
      `- Forks pinned to CPUs (\`--pin\`): ${e.affinity ?? "none"}`,
      `- CPU: ${e.cpu} × ${e.cores}, ${e.memoryGiB} GiB RAM, ${e.os} (${e.arch})`,
      `- Commit: ${e.commit ?? "unknown"}; date ${e.date}`,
      `- Timing: ${forksText(report)} per case, each ${report.timing.warmupMs} ms warm-up + ` +
        `≥ ${report.timing.timeMs} ms in interleaved turns of ${report.timing.sliceMs} ms, ` +
        `≥ ${report.timing.minSamples} batches; total ${formatDuration(report.durationMs)} ` +
        `for ${report.cases.length} cases`,
      ...(report.failures.length > 0
        ? [
            `- Forks that lost a codec: ${report.failures
              .map(
                (f) =>
                  `fork ${f.fork + 1} ${f.codec}${f.impl === "raw" ? " (raw)" : ""}: ${f.reason}`,
              )
              .join("; ")}`,
          ]
        : []),
    ].join("\n"),
  );
  return `${out.join("\n").trimEnd()}\n`;
}

/** The body of "Safety on hostile input": the fuzzer's own Markdown, under its source. */
export function safetyText(safety: SafetySection | undefined): string {
  if (!safety) {
    return "No fuzzing results found (`apps/fuzz/results/` or `apps/fuzz/docs/`); run `pnpm fuzz`.";
  }
  if (safety.error !== undefined) return `\`${safety.source}\` could not be read: ${safety.error}`;
  if (safety.markdown === undefined) return `\`${safety.source}\` holds no rendered safety matrix.`;
  // The fuzzer's Markdown starts with its own "## Safety on hostile input" heading.
  const body = safety.markdown.trim().replace(/^## Safety on hostile input\s*/, "");
  const where = safety.machine
    ? `, run on ${safety.machine}, not necessarily this run's machine`
    : "";
  const only = safety.codecs
    ? `; only the rows of this run's codecs (${safety.codecs.join(", ")})`
    : "";
  return `From \`${safety.source}\` (\`pnpm fuzz\`${where})${only}.\n\n${body}`;
}

// The sections a generated block can name (`<!-- generated: <section> [args] -->`), each a
// function of the sources (sources.js), its arguments and the file it is written into.
// Figures come from the reports' JSON fields, and are written with the bench's own renderers
// (apps/bench/dist/render), so a doc shows a number exactly as the report does; "auto-routes"
// runs @snappykit/auto's own routing over the fixtures' bytes.
import { posix } from "node:path";
import { createCodec as createAuto } from "@snappykit/auto";
import { loadPayloads } from "@snappykit/fixtures";
import { formatBytes, formatDuration, markdownTable } from "@snappykit/workspace/format";
import { levelText as level } from "../render/levels.js";
import { formatTime } from "../render/numbers.js";
import { REQRESP_METHOD, reqrespAnswer, reqrespTable } from "../render/reqresp.js";
import { crossoverLine } from "../render/sweep-md.js";
import { cellText as cell, markdownTable as tableMarkdown } from "../render/table.js";
import {
  overheadTable,
  payloadLabel,
  ratedRows,
  relativeTable,
  speedTable,
} from "../render/tables.js";
import { day, machine, short, timedIn } from "./format.js";
import { RUN_SECTIONS } from "./runs.js";
import { REPORTS } from "./sources.js";

/**
 * Where a section is written: the doc's path from the repository root, and relative links
 * from it (only README.md and docs/results.md hold blocks, and npm shows neither).
 * @typedef {{ file: string, link: (path: string, text?: string) => string }} Here
 */

/** @returns {Here} */
export const here = (file) => ({
  file,
  link: (path, text = posix.basename(path)) =>
    `[${text}](${posix.relative(posix.dirname(file), path) || "."})`,
});

/** `key=a,b key2=c` → { key: ["a", "b"], key2: ["c"] }. */
function options(args) {
  return Object.fromEntries(
    args.map((arg) => {
      const [key, value = ""] = arg.split("=");
      return [key, value.split(",").filter(Boolean)];
    }),
  );
}

const int = (n) => n.toLocaleString("en-US");

/** auto as a user gets it (native loaded, shipped thresholds), for "auto-routes". */
const auto = await createAuto();

/**
 * Per payload of the fixtures, how many items auto sends to native, per op.
 * @throws Error when native did not load or `thresholds` are not the ones auto loaded.
 */
function nativeRoutes(thresholds) {
  const d = auto.describe();
  if (d.native === null) throw new Error(`auto did not load its native codec: ${d.reason}`);
  const { provenance: _, ...shipped } = thresholds;
  if (JSON.stringify(d.thresholds) !== JSON.stringify(shipped)) {
    throw new Error("the thresholds given are not the ones @snappykit/auto loaded");
  }
  return loadPayloads().map(({ name, items }) => ({
    name,
    items: items.length,
    compress: items.filter((item) => auto.explain("compress", item).backend === "napi").length,
    uncompress: items.filter(
      (item) => auto.explain("uncompress", auto.compress(item)).backend === "napi",
    ).length,
  }));
}

/** "`pnpm bench` (2026-12-01, commit `abc1234`, Node v20.20.2, AMD EPYC × 2 cores, …)". */
function benchSource(report, at, path = REPORTS.bench, command = report.command) {
  const e = report.environment;
  const forks = report.cases.map((c) => c.forks);
  const range =
    Math.min(...forks) === Math.max(...forks)
      ? `${forks[0]}`
      : `${Math.min(...forks)}–${Math.max(...forks)}`;
  return (
    `\`${command}\` on ${day(e.date)} (commit ${short(e.commit)}, ${timedIn(e)}, ` +
    `${machine(e)}; ${report.cases.length} cases, ${range} fresh processes each, ` +
    `${formatDuration(report.durationMs)}; full report ${at.link(path.replace(/json$/, "md"))})`
  );
}

/** The codecs tied for fastest, or how many when too many to list in a cell. */
const tied = (codecs) => (codecs.length <= 4 ? codecs.join(", ") : `${codecs.length} codecs`);

/** Rows of the relative table as `payload, op, fastest, ...codecs`, some payloads and ops. */
function ratios(report, { payloads, ops, codecs }) {
  const table = relativeTable(report);
  const rated = ratedRows(report);
  const columns = codecs ?? table.headers.slice(2);
  const index = columns.map((name) => table.headers.indexOf(name));
  const rows = table.rows.flatMap((row, i) => {
    const { payload, op, fastest } = rated[i];
    if ((payloads && !payloads.includes(payload)) || (ops && !ops.includes(op))) return [];
    const codecCells = index.map((k) => (k < 0 ? "—" : cell(row[k])));
    return [[cell(row[0]), cell(row[1]), tied(fastest), ...codecCells]];
  });
  return markdownTable(
    ["payload", "op", "fastest (or tied)", ...columns],
    ["l", "l", "l", ...columns.map(() => "r")],
    rows,
  );
}

/** The fuzzer's verdicts on the framed implementations (apps/fuzz, its framed matrix). */
function framedSafety(safety, at) {
  const rows = safety.rows.filter((r) => r.target === "framed");
  const link = at.link(REPORTS.safety.replace(/json$/, "md"));
  if (rows.length === 0 || !safety.framedN) {
    return `The committed fuzz report (${link}) has no framed rows yet: \`pnpm fuzz --out apps/fuzz/docs\` adds them.`;
  }
  const n = safety.framedN;
  return [
    `**Hostile framed input** (\`pnpm fuzz\`, ${day(safety.date)}; ${link}): ${n.crafted} crafted and ` +
      `${int(n.mutated)} mutated \`ssz_snappy\` encodings in 7-byte pieces, each call in a child process ` +
      "under a watchdog, judged against a by-the-book decoder with CRCs checked.",
    "",
    markdownTable(
      [
        "implementation",
        "calls",
        "silent accepts",
        "wrong bytes",
        "crashes",
        "hangs",
        "peak RSS growth",
      ],
      ["l", "r", "r", "r", "r", "r", "r"],
      rows.map((r) => {
        const c = r.total.counts;
        return [
          r.id,
          int(r.total.calls),
          int(c.silentAccept),
          int(c.wrongBytes),
          int(c.crash),
          int(c.hang),
          formatBytes(r.total.maxRssGrowth),
        ];
      }),
    ),
  ].join("\n");
}

export const SECTIONS = {
  /** The root README's adapter table, from each released adapter's package.json. */
  adapters(context) {
    const rows = context.packages
      .filter((p) => p.adapter && p.pkg.version !== "0.0.0")
      .map(({ name, relDir, pkg }) => [
        `[\`${name}\`](${relDir})`,
        pkg.snappykit.wraps ?? "",
        pkg.snappykit.runtime ?? "",
        pkg.snappykit.guard ?? "",
      ]);
    return markdownTable(
      ["package", "wraps", "runtime", "guard the adapter adds"],
      ["l", "l", "l", "l"],
      rows,
    );
  },

  /** The fixtures README's payload table, from the manifest `generate` writes. */
  payloads(context) {
    return markdownTable(
      ["name", "kind", "SSZ type", "items", "bytes", "snappy@7 ratio"],
      ["l", "l", "l", "r", "r", "r"],
      context.manifest.payloads.map((p) => [
        `\`${p.name}\``,
        p.kind,
        p.sszType ? `${p.fork}.${p.sszType}` : "—",
        String(p.items),
        int(p.bytes),
        p.snappyRatio.toFixed(3),
      ]),
    );
  },

  /**
   * Ratios to the reference with their intervals, for some payloads, ops and codecs:
   * `bench-ratios payloads=a,b ops=compress codecs=ts,auto` (each optional); `report=corpus`
   * for the standard corpus's run instead of the sample report.
   */
  "bench-ratios"(context, args, at) {
    const { report: [name = "bench"] = [], ...selection } = options(args);
    if (name !== "bench" && name !== "corpus") throw new Error(`bench-ratios: no report "${name}"`);
    const report = context[name];
    const tied = report.relative.filter((r) => !r.op.endsWith("-async"));
    const autoTied = tied.filter((r) => r.fastest.includes("auto")).length;
    return [
      // The corpus run's own command names its 11 files; the script that made it says it all.
      `${benchSource(report, at, REPORTS[name], name === "corpus" ? "npm run bench:corpus" : report.command)}. Each cell is the codec's time ÷ ${report.reference}'s, ` +
        `measured in the same processes' turns: the median over the processes with its ` +
        `${level(report.relative.flatMap((r) => r.cells.map((c) => c.ci)))} interval; below 1× is faster; **bold**: the fastest or not distinguishable from it.` +
        (report.codecs.some((c) => c.id === "auto")
          ? ` auto is fastest or tied on ${autoTied} of the ${tied.length} synchronous rows of the run.`
          : ""),
      "",
      ratios(report, selection),
    ].join("\n");
  },

  /**
   * The req/resp answer from the framed implementations' run (`npm run bench:reqresp`):
   * `reqresp` the answer, how it was measured and the table; `reqresp answer` the answer alone.
   */
  reqresp(context, [part], at) {
    const report = context.reqresp;
    if (!report) {
      return `No req/resp run is committed yet: \`npm run bench:reqresp\`, then \`npm run docs -- --adopt\`.`;
    }
    const source = benchSource(report, at, REPORTS.reqresp, "npm run bench:reqresp");
    const lines = reqrespAnswer(report);
    const answer = `${lines.join(" ")} (${source}.)`;
    // The README's: the pick and what it leaves out for checking no CRC, not the ties.
    if (part === "answer") return `${[lines[0], ...lines.slice(2)].join(" ")} (${source}.)`;
    return [
      answer,
      "",
      REQRESP_METHOD,
      "",
      tableMarkdown(reqrespTable(report)),
      "",
      framedSafety(context.safety, at),
    ].join("\n");
  },

  /** One codec's rows: time, ratio to the reference, who is fastest; its adapter overhead. */
  "bench-codec"(context, [id], at) {
    const report = context.bench;
    const speed = speedTable(report);
    const relative = relativeTable(report);
    const reference = id === report.reference;
    const rows = report.relative.flatMap((row) => {
      const at = (r) => r[0].text === payloadLabel(report, row.payload) && r[1].text === row.op;
      const time = speed.rows.find(at)?.[speed.headers.indexOf(id)];
      if (!time || time.text === "—") return [];
      const ratio = relative.rows.find(at)?.[relative.headers.indexOf(id)] ?? { text: "—" };
      return [
        [
          payloadLabel(report, row.payload),
          row.op,
          cell(time),
          ...(reference ? [] : [cell(ratio)]),
          tied(row.fastest),
        ],
      ];
    });
    if (rows.length === 0) {
      return `Not in the committed sample report yet: \`npm run bench -- --codec ${id}\` times it.`;
    }
    const overhead = overheadTable(report);
    const costs = report.overhead.flatMap((o, i) =>
      o.codec === id ? [`${o.payload} ${o.op} ${overhead.rows[i][5].text}`] : [],
    );
    return [
      `${benchSource(report, at)}. Time per op: median over the processes ± half its ` +
        `${level(report.cases.map((c) => c.ci))} ` +
        `interval${reference ? "" : `; ÷ ${report.reference}: time ÷ ${report.reference}'s in the same processes, with its interval`}; **bold**: fastest or tied.`,
      "",
      markdownTable(
        [
          "payload",
          "op",
          "time",
          ...(reference ? [] : [`÷ ${report.reference}`]),
          "fastest (or tied)",
        ],
        ["l", "l", "r", ...(reference ? [] : ["r"]), "l"],
        rows,
      ),
      ...(costs.length > 0
        ? ["", `What the adapter adds to the library called directly: ${costs.join("; ")}.`]
        : []),
    ].join("\n");
  },

  ...RUN_SECTIONS,

  /** Where ts and napi cross, per stream of the sweep (what auto ships as thresholds). */
  "sweep-crossovers"(context, _args, at) {
    const s = context.sweep;
    const e = s.environment;
    const lines = s.series.flatMap((series) =>
      series.crossover
        .filter((c) => c.kind === "ts-vs-napi")
        .map(
          (c) =>
            `- ${series.name} (compresses ${series.ratio.toFixed(1)}×), ${crossoverLine(c, s.sizes)}`,
        ),
    );
    return [
      `\`${s.command}\` on ${day(e.date)} (commit ${short(e.commit)}, ${timedIn(e)}, ${machine(e)}, ` +
        `${formatDuration(s.durationMs)}; ${at.link(REPORTS.sweep.replace(/json$/, "md"))}): ` +
        `messages of ${formatBytes(Math.min(...s.sizes))} to ${formatBytes(Math.max(...s.sizes))} ` +
        `cut from two streams of real SSZ bytes, ts against napi:`,
      "",
      ...lines,
    ].join("\n");
  },

  /** auto's shipped thresholds as `describe()` returns them, and where they come from. */
  "auto-thresholds"(context, _args, at) {
    const t = context.thresholds;
    const p = t.provenance;
    const data = {
      compressible: "compressible data (blocks)",
      incompressible: "incompressible data (sidecars)",
    };
    const line = (op, kind) => {
      const c = p.crossover[op][kind];
      const what = `- ${op}, ${data[kind]}:`;
      if (c.size === null) return `${what} never native (ts faster at every size of the sweep)`;
      // An interval bound the ratio never crosses inside the sweep's sizes is null.
      const bound = (v, side) =>
        v === null ? `no ${side} bound in the sweep` : int(Math.round(v));
      const ci = c.ci ? ` [${bound(c.ci.low, "lower")}, ${bound(c.ci.high, "upper")}]` : "";
      return `${what} native from ${int(t[op][kind])} B${ci}`;
    };
    return [
      "```ts",
      "codec.describe().thresholds;",
      `// { compress: { compressible: ${t.compress.compressible}, incompressible: ${t.compress.incompressible} },`,
      `//   uncompress: { compressible: ${t.uncompress.compressible}, incompressible: ${t.uncompress.incompressible} } }`,
      "```",
      "",
      `With the ${Math.round(p.crossover.compress.compressible.ci.level * 100)} % pointwise intervals of the crossings they come from:`,
      "",
      ...["compress", "uncompress"].flatMap((op) =>
        ["compressible", "incompressible"].map((kind) => line(op, kind)),
      ),
      "",
      `From \`${p.command}\` on ${day(p.date)} (commit ${short(p.commit)}, Node ${p.node}, ${p.machine}), ` +
        `written by \`${p.generatedBy}\` into ${at.link(REPORTS.thresholds)}.`,
    ].join("\n");
  },

  /**
   * Which of the bench's payloads auto's shipped thresholds send to native: every item routed
   * by auto's own `explain()` (size and kind), so the list follows the thresholds and the
   * kind rules.
   */
  "auto-routes"(context) {
    const routes = nativeRoutes(context.thresholds);
    const label = (name) => payloadLabel({ payloads: context.manifest.payloads }, name);
    const listed = (op) => {
      const native = routes.filter((r) => r[op] > 0);
      if (native.length === 0) return "none of them";
      return native
        .map(
          (r) => `${label(r.name)}${r[op] < r.items ? ` (${r[op]} of its ${r.items} items)` : ""}`,
        )
        .join(", ");
    };
    const tsOnly = routes.filter((r) => r.compress === 0 && r.uncompress === 0);
    return [
      `What they send to native among the bench's ${routes.length} payloads, each item routed by ` +
        "`codec.explain(op, input)` (compress by the input's size and kind, uncompress by the size " +
        "its stream declares and its kind):",
      "",
      `- compress: ${listed("compress")}`,
      `- uncompress: ${listed("uncompress")}`,
      `- neither (every item to ts): ${tsOnly.map((r) => r.name).join(", ")}`,
    ].join("\n");
  },

  /** Per adapter of the workspace, a heading (its anchor: the id), its fuzz and bench rows. */
  "adapter-results"(context, _args, at) {
    const ids = context.packages
      .filter((p) => p.adapter && /^packages\/[^/]+$/.test(p.relDir))
      .map((p) => posix.basename(p.relDir));
    // One that runs in other runtimes than the tools' Node (ffi) has its rows under
    // `<id>-<runtime>` (ffi-node26, ffi-bun, ffi-deno): each gets its paragraph, named.
    const sections = (id, section, names) => {
      const runs = names.includes(id)
        ? [id]
        : [...new Set(names.filter((n) => new RegExp(`^${id}-(node\\d+|bun|deno)$`).test(n)))];
      return (runs.length > 0 ? runs : [id]).map(
        (n) => `${n === id ? "" : `**${n}**: `}${SECTIONS[section](context, [n], at)}`,
      );
    };
    return ids
      .map((id) =>
        [
          `### ${id}`,
          ...sections(
            id,
            "fuzz-codec",
            context.safety.rows.map((r) => r.id),
          ),
          ...sections(
            id,
            "bench-codec",
            context.bench.cases.map((c) => c.codec),
          ),
        ].join("\n\n"),
      )
      .join("\n\n");
  },

  /** Which codec's RSS kept growing in the soak, and how high each scenario peaked. */
  "soak-summary"(context, _args, at) {
    const s = context.soak;
    const e = s.environment;
    const scenario = (name) => {
      const rows = s.rows.filter((r) => r.scenario === name);
      const peaks = rows.map((r) => r.rssPeak);
      const growing = rows.filter((r) => r.grows);
      return `${
        growing.length === 0
          ? "no codec's RSS kept growing"
          : `RSS kept growing for ${growing.map((r) => `**${r.codec}** (peak ${formatBytes(r.rssPeak)}, +${formatBytes(r.rssRise)} over the run)`).join(", ")}`
      }; peaks ${formatBytes(Math.min(...peaks))}–${formatBytes(Math.max(...peaks))}`;
    };
    return (
      `\`${s.command}\` on ${day(e.date)} (commit ${short(e.commit)}, ${timedIn(e)}, ${machine(e)}, ` +
      `${formatDuration(s.durationMs)}; ${at.link(REPORTS.soak.replace(/json$/, "md"))}), each codec in ` +
      `fresh processes: under ${s.settings.gossipSeconds} s of mixed gossip ${scenario("gossip")}; ` +
      `over ${s.settings.blobRounds} rounds of a ${formatBytes(s.settings.blobBytes)} blob ` +
      `([napi-rs/snappy #323](https://github.com/Brooooooklyn/snappy/issues/323)) ${scenario("big-blob")}.`
    );
  },

  /** One adapter on the fuzzer's hostile inputs, against its library called directly. */
  "fuzz-codec"(context, [id], at) {
    const s = context.safety;
    const rows = s.rows.filter((r) => r.id === id);
    const adapter = rows.find((r) => r.target === "adapter");
    const raw = rows.find((r) => r.target !== "adapter");
    if (!adapter) {
      return `Not in the fuzzer's committed report yet: \`pnpm fuzz --codec ${id}\` runs it.`;
    }
    const outcome = (r) =>
      `${r.missed.length === 0 ? "met every target" : `missed the targets (${r.missed.join(", ")})`}, ` +
      `peak RSS growth ${formatBytes(r.total.maxRssGrowth)}, slowest call ${formatTime(r.total.maxMs * 1e6)}`;
    return (
      `On the fuzzer's ${int(adapter.total.calls)} hostile inputs (\`pnpm fuzz\`, ${day(s.date)}; ` +
      `${at.link(REPORTS.safety.replace(/json$/, "md"))}), each call in a child process under a watchdog, ` +
      `this adapter ${outcome(adapter)}` +
      (raw ? `; ${raw.library} called directly ${outcome(raw)}.` : ".")
    );
  },

  /** The fuzzer's committed runs in a few lines: `fuzz-summary [safety] [encoders] [async] [guided]`. */
  "fuzz-summary"(context, args, at) {
    const parts = args.length > 0 ? args : ["safety", "encoders", "async", "guided"];
    const link = (path) => at.link(path.replace(/json$/, "md"));
    const render = {
      safety() {
        const s = context.safety;
        const adapters = s.rows.filter((r) => r.target === "adapter");
        const raw = s.rows.filter((r) => r.target === "raw");
        const missed = raw.filter((r) => r.missed.length > 0);
        const sum = (rows, key) => rows.reduce((n, r) => n + r.total.counts[key], 0);
        const peak = Math.max(...adapters.map((r) => r.total.maxRssGrowth));
        return (
          `**Hostile input** (\`pnpm fuzz\`, ${day(s.date)}, ${formatDuration(s.durationMs)}; ${link(REPORTS.safety)}): ` +
          `${int(adapters[0]?.total.calls ?? 0)} inputs (${int(s.n.random)} random, ${int(s.n.mutated)} mutated valid streams, ` +
          `${s.n.crafted} crafted cases) through every adapter and every raw library, each call in a child process under a watchdog. ` +
          `${adapters.filter((r) => r.missed.length === 0).length} of ${adapters.length} adapter rows meet every target ` +
          `(${sum(adapters, "silentAccept")} silent accepts, ${sum(adapters, "wrongBytes")} wrong bytes, ${sum(adapters, "crash")} crashes, ` +
          `${sum(adapters, "hang")} hangs, peak RSS growth at most ${formatBytes(peak)}); ` +
          `${missed.length} of ${raw.length} raw libraries miss them (${missed.map((r) => r.id).join(", ")}).`
        );
      },
      encoders() {
        const s = context.encoders;
        const wrong = s.rows.filter((r) => r.counts.ok !== r.inputs);
        return (
          `**Encoders** (\`pnpm fuzz --encoders\`, ${day(s.date)}, ${formatDuration(s.durationMs)}; ${link(REPORTS.encoders)}): ` +
          `${s.inputs} inputs built to break encoders through ${s.rows.length} adapters, variants and raw libraries; ` +
          `${wrong.length === 0 ? "every stream decodes back to its input" : `failures in ${wrong.map((r) => r.id).join(", ")}`}.`
        );
      },
      async() {
        const s = context.async;
        const rows = s.rows.filter((r) => r.result);
        const sum = (key) => rows.reduce((n, r) => n + r.result[key], 0);
        return (
          `**Async** (\`pnpm fuzz --async\`, ${day(s.date)}, ${formatDuration(s.durationMs)}; ${link(REPORTS.async)}): ` +
          `${int(s.calls)} calls per async API (${rows.map((r) => r.id).join(", ")}) in waves of ${int(s.wave)} in flight: ` +
          `${sum("wrongResults")} wrong results, ${sum("misattributedErrors")} misattributed errors, ${sum("nonSnappyErrors")} errors other than \`SnappyError\`.`
        );
      },
      guided() {
        const sessions = context.guided;
        const targets = [...new Set(sessions.map((s) => s.target))];
        const total = (target, key) =>
          sessions.filter((s) => s.target === target).reduce((n, s) => n + s[key], 0);
        const findings = sessions.reduce((n, s) => n + s.findings.length, 0);
        return (
          `**Coverage-guided** (\`pnpm fuzz --guided\`, ${day(sessions[0].startedAt)}; ${at.link("apps/fuzz/docs/guided.md")}): ` +
          `${targets.map((t) => `\`${t}\` ${formatDuration(total(t, "seconds") * 1000)}, ${int(total(t, "execs"))} executions`).join("; ")}; ` +
          `${findings} findings.`
        );
      },
    };
    return parts.map((part) => render[part]()).join("\n\n");
  },
};

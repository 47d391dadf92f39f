import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readReport } from "../inputs/reports.js";
import type { BenchReport, RuntimeRun } from "../model/report.js";
import { compareCases } from "../summarise/compare.js";
import { computeOverhead } from "../summarise/results.js";
import { CAP, renderSvg } from "./charts.js";
import { renderMarkdown } from "./markdown.js";
import { formatTime } from "./numbers.js";
import { markdownTable, type Table, textTable } from "./table.js";
import { c, relativeTable } from "./tables.js";
import { renderTerminal } from "./terminal.js";

// A real `pnpm bench --quick` run on 4 codecs and 3 payloads, recorded (see README).
const FIXTURE = fileURLToPath(new URL("../__fixtures__/report.json", import.meta.url));
const recorded = readReport(FIXTURE);
const withUnavailable: BenchReport = {
  ...recorded,
  unavailable: [{ id: "broken", packageName: "@snappykit/broken", reason: "native build missing" }],
};

describe("renderMarkdown", () => {
  const md = renderMarkdown(withUnavailable);
  const codecs = recorded.codecs.map((c) => c.id);

  it("has every section a PR description needs", () => {
    for (const title of [
      `## Relative to ${recorded.reference}`,
      "## Speed: time per op",
      "## Compressed size",
      "## Allocation per op",
      "## Adapter overhead",
      "## Spread",
      "## Payloads",
      "## Codecs",
      "## Safety on hostile input",
      "## Environment",
    ]) {
      expect(md).toContain(title);
    }
    expect(md).toContain(recorded.environment.node);
    expect(md).toContain(recorded.environment.cpu);
  });

  it("has a speed row per payload × op, a column per codec, the tied fastest in bold", () => {
    const section = md.split("## Speed")[1]!.split("## ")[0]!;
    const header = section.split("\n").find((l) => l.startsWith("| payload"))!;
    for (const id of codecs) expect(header).toContain(id);
    const rows = section
      .split("\n")
      .filter((l) => /^\| [^\s-]/.test(l) && !l.startsWith("| payload"));
    const expectedRows = new Set(
      recorded.cases.filter((c) => c.impl === "adapter").map((c) => `${c.payload}/${c.op}`),
    );
    expect(rows).toHaveLength(expectedRows.size);
    for (const row of rows) expect(row.match(/\*\*/g)?.length).toBeGreaterThanOrEqual(2);
    // Bold cells are exactly the row's codecs tied for fastest; each carries "± x %".
    const cell = (row: string, i: number) => row.split("|")[i + 1]!.trim();
    const names = header
      .split("|")
      .slice(3, -1)
      .map((h) => h.trim());
    for (const row of rows) {
      const [payload, op] = [cell(row, 0).split(" ")[0]!, cell(row, 1)];
      const tied = recorded.relative.find((r) => r.payload === payload && r.op === op)!.fastest;
      const bold = names.filter((_, i) => /^\*\*.+\*\*$/.test(cell(row, i + 2)));
      expect(bold.sort()).toEqual([...tied].sort());
      for (let i = 0; i < names.length; i++) {
        if (cell(row, i + 2) !== "—") expect(cell(row, i + 2)).toMatch(/± \d/);
      }
    }
  });

  it("leaves out of the relative table the rows with no ratio to the reference", () => {
    const section = md.split(`## Relative to ${recorded.reference}`)[1]!.split("## ")[0]!;
    const rows = section
      .split("\n")
      .filter((l) => /^\| [^\s-]/.test(l) && !l.startsWith("| payload"));
    const rated = recorded.relative.filter((r) => r.cells.some((x) => x.ratio !== undefined));
    expect(rows).toHaveLength(rated.length);
    for (const row of rows) expect(row).toMatch(/\d\.\d+×/);
    const unrated = { payload: recorded.payloads[0]!.name, op: "compress-into" };
    const withUnrated = {
      ...recorded,
      relative: [
        ...recorded.relative,
        {
          ...unrated,
          reference: recorded.reference,
          fastest: [],
          cells: [{ codec: codecs[0]!, fastest: false }],
        },
      ],
    };
    expect(relativeTable(withUnrated).rows).toHaveLength(rated.length);
  });

  it("lists unavailable codecs with their reason", () => {
    expect(md).toMatch(/\| broken\s+\| @snappykit\/broken\s+\| native build missing\s+\|/);
    expect(renderMarkdown(recorded)).toContain("Every adapter in the workspace loaded.");
  });

  it("includes the fuzzer's section the report carries, and a pointer otherwise", () => {
    const safety = (s: BenchReport["safety"]) =>
      renderMarkdown({ ...recorded, safety: s }).split("## Safety on hostile input")[1]!;
    const fuzz = "## Safety on hostile input\n\n| a |\n|---|\n";
    expect(safety({ source: "f.json", markdown: fuzz })).toMatch(
      /^\n\nFrom `f.json` \(`pnpm fuzz`\).\n\n\| a \|\n\|---\|\n/,
    );
    expect(
      safety({
        source: "f.json",
        markdown: fuzz,
        machine: "CPU × 2, Node 20, 2026-11-30",
        codecs: ["ts"],
      }),
    ).toMatch(
      /^\n\nFrom `f.json` \(`pnpm fuzz`, run on CPU × 2, Node 20, 2026-11-30, not necessarily this run's machine\); only the rows of this run's codecs \(ts\)\./,
    );
    expect(safety({ source: "f.json" })).toContain("`f.json` holds no rendered safety matrix.");
    expect(safety({ source: "f.json", error: "bad JSON" })).toContain(
      "`f.json` could not be read: bad JSON",
    );
    expect(md).toContain("No fuzzing results found");
    expect(md).toContain("run `pnpm fuzz`");
  });

  it("reports a comparison: verdicts, intervals, method and what was skipped", () => {
    const slower = {
      ...recorded,
      cases: recorded.cases.map((c) =>
        c.codec === recorded.reference
          ? { ...c, p50: c.p50 * 1.5, forkMedians: c.forkMedians.map((x) => (x ?? 0) * 1.5) }
          : c,
      ),
    };
    const { entries, info } = compareCases(recorded, slower, 10, "base.json");
    const out = renderMarkdown({ ...slower, comparison: entries, compared: info });
    expect(out).toContain("## Compared with baseline");
    expect(out).toContain("Mann–Whitney");
    expect(out).toContain("+50 %");
    // A quick recording has 3 forks: too few to call anything significant, and it says so.
    expect(out).toMatch(
      /nothing could be tested: 0 of \d+ cases testable \(needs ≥ 4 forks a side\), so no case can be called slower or faster/,
    );
    expect(out).not.toMatch(/significantly slower/);
    // Every other codec is judged by its ratio to the reference, which moved: −33 %; the
    // reference by its ratio to the row's other codecs (+50 %).
    expect(out).toMatch(/no significant change \(ratio\)/);
    expect(out).toMatch(/÷ the row's other codecs: 1\.00× → 1\.50×/);
    expect(out).toMatch(/of napi's own by their ratio to the row's other codecs/);
  });
});

describe("overhead", () => {
  it("pairs each raw case with its adapter case, with an interval", () => {
    const rows = computeOverhead(recorded.cases);
    expect(rows.length).toBeGreaterThan(0);
    // Levels to 12 digits: the recorded run's binomial coverage came from a library whose
    // sums were off in the last bits (0.7499999999999998 for 0.75).
    const digits = (x: unknown) =>
      JSON.parse(JSON.stringify(x), (_, v) =>
        typeof v === "number" ? Number(v.toPrecision(12)) : v,
      );
    expect(digits(rows)).toEqual(digits(recorded.overhead));
    for (const r of rows) {
      expect(r.ci!.low).toBeLessThanOrEqual(r.percent);
      expect(r.ci!.high).toBeGreaterThanOrEqual(r.percent);
      expect(r.withinNoise).toBe(r.ci!.low <= 0 && r.ci!.high >= 0);
    }
  });
});

describe("renderSvg", () => {
  const svg = renderSvg(recorded);

  it("is a well-formed standalone SVG", () => {
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    // Every element is self-closing or closed in order.
    const stack: string[] = [];
    for (const m of svg.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)) {
      const [, closing, name, selfClosing] = m;
      if (selfClosing) continue;
      if (closing) expect(stack.pop()).toBe(name);
      else stack.push(name!);
    }
    expect(stack).toEqual([]);
    expect(svg).not.toMatch(/NaN|undefined|Infinity/);
  });

  it("draws one coloured cell per adapter case, the tied fastest of each row outlined", () => {
    const cells = [...svg.matchAll(/<path aria-label="([^"]+)" [^>]*rect mark"[^>]*>/g)];
    const run = cells.filter((m) => !m[1]!.endsWith("not run"));
    expect(run).toHaveLength(recorded.cases.filter((c) => c.impl === "adapter").length);
    const outlined = run.filter((m) => m[0].includes('stroke="#0f172a"')).length;
    expect(outlined).toBe(recorded.relative.reduce((n, r) => n + r.fastest.length, 0));
    expect(svg).toContain(`≥${CAP}×</text>`);
  });

  it("writes each cell's interval under its time, and nothing that needs a hover", () => {
    const c = recorded.cases.find((x) => x.impl === "adapter" && x.ci)!;
    expect(svg).toContain(`>${formatTime(c.ci!.low)}–${formatTime(c.ci!.high)}</text>`);
    expect(svg).not.toMatch(/hover/i);
  });

  it("colours async ops against the fastest async codec, not the fastest sync one", () => {
    for (const r of recorded.relative.filter((x) => x.op.endsWith("-async"))) {
      const cases = recorded.cases.filter(
        (c) => c.impl === "adapter" && c.payload === r.payload && c.op === r.op,
      );
      const fastest = cases.reduce((a, b) => (b.p50 < a.p50 ? b : a));
      const cell = new RegExp(
        `<path aria-label="${fastest.codec} · ${r.payload} · ${r.op}"[^>]*fill="([^"]+)"`,
      ).exec(svg);
      // Viridis's light end: 1×, the fastest.
      expect(cell?.[1], `${r.payload} ${r.op}`).toBe("rgb(253, 231, 37)");
    }
  });
});

describe("renderTerminal", () => {
  it("prints the main tables without colour codes when not a TTY", () => {
    const text = renderTerminal(withUnavailable, { colour: false });
    // The recording has 3 forks: [min, max] of 3 covers 75 %, and the titles say so.
    expect(text).toContain("Time per op ± 75 % interval (* = fastest or tied)");
    expect(text).toContain("[75 % interval]");
    expect(text).not.toContain("95 % interval");
    expect(text).toContain(`Relative to ${recorded.reference}`);
    expect(text).toContain("Unavailable codecs");
    expect(text).not.toContain("\x1b[");
  });

  it("marks the fastest cells bold on a TTY", () => {
    expect(renderTerminal(recorded, { colour: true })).toContain("\x1b[1m");
  });

  it("fits a 100-column terminal, splitting wide tables into parts that repeat the labels", () => {
    const full = readReport(
      fileURLToPath(new URL("../../docs/sample-report.json", import.meta.url)),
    );
    const wide = renderTerminal(full, { colour: false });
    expect(Math.max(...wide.split("\n").map((l) => [...l].length))).toBeGreaterThan(100);
    const text = renderTerminal(full, { colour: false, width: 100 });
    for (const line of text.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(100);
    // Every codec still appears, and each part starts with the label columns.
    for (const c of full.codecs) expect(text).toContain(c.id);
    const relative = text.split("Time per op")[0]!;
    expect(relative.match(/^payload +op /gm)!.length).toBeGreaterThan(1);
  });
});

describe("textTable", () => {
  const table: Table = {
    headers: ["payload", "op", "a", "b", "c"],
    align: ["l", "l", "r", "r", "r"],
    rows: [
      [c("beacon-block"), c("compress"), c("1.00×", true), c("2.00×"), c("3.00×")],
      [c("blob"), c("uncompress"), c("1.50×"), c("0.50×", true), c("0.90×", true)],
    ],
  };

  it("aligns every column, the plain-text mark of a strong cell included", () => {
    const lines = textTable(table, { colour: false }).split("\n");
    expect(new Set(lines.map((l) => [...l].length)).size).toBe(1);
    expect(lines[2]).toContain("1.00×*");
  });

  it("splits a table wider than the view into parts that repeat the label columns", () => {
    const text = textTable(table, { colour: false, width: 40 });
    const parts = text.split("\n\n");
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.split("\n")[0]).toMatch(/^payload +op /);
    for (const line of text.split("\n")) expect([...line].length).toBeLessThanOrEqual(40);
    for (const h of ["a", "b", "c"]) expect(text).toMatch(new RegExp(`\\s${h}(\\s|$)`, "m"));
  });
});

describe("markdownTable", () => {
  it("pads columns, right-aligns numbers and escapes pipes", () => {
    const md = markdownTable({
      headers: ["name", "n"],
      align: ["l", "r"],
      rows: [[{ text: "a|b" }, { text: "1", strong: true }]],
    });
    expect(md).toBe("| name |     n |\n| ---- | ----: |\n| a\\|b | **1** |");
  });
});

describe("Runtimes section", () => {
  const inBun: RuntimeRun = {
    runtime: { name: "bun", version: "1.4.5" },
    // ts did not run in this one: every fork lost it.
    cases: recorded.cases.map((r) => (r.codec === "ts" ? { ...r, p50: Number.NaN } : r)),
  };

  it("puts each runtime in a column, for the cases that ran in all of them", () => {
    const md = renderMarkdown({ ...recorded, runtimes: [inBun] });
    const section = md.slice(md.indexOf("## Runtimes"), md.indexOf("## Spread"));
    expect(section).toContain(`node ${recorded.environment.node.replace(/^v/, "")}`);
    expect(section).toContain("bun 1.4.5");
    const codecs = recorded.codecs.map((c) => c.id).filter((id) => id !== "ts");
    for (const id of codecs) expect(section).toMatch(new RegExp(`^\\| ${id} `, "m"));
    expect(section).not.toMatch(/^\| ts /m);
    // One row per case: raw rows (the library called directly) are not repeated.
    const first = recorded.cases.find((r) => r.impl === "adapter" && r.codec !== "ts")!;
    const row = new RegExp(
      `^\\| ${first.codec} +\\| ${first.payload} .*\\| ${first.op} +\\|`,
      "gm",
    );
    expect(section.match(row)).toHaveLength(1);
  });

  it("orders the columns by runtime, whichever run writes the report", () => {
    const md = renderMarkdown({
      ...recorded,
      environment: { ...recorded.environment, runtime: inBun.runtime },
      runtimes: [{ runtime: { name: "node", version: "20.20.2" }, cases: recorded.cases }],
    });
    const header = md
      .split("## Runtimes")[1]!
      .split("\n")
      .find((l) => l.startsWith("| codec"))!;
    expect(header).toMatch(/\| +node 20\.20\.2 \| +bun 1\.4\.5 \|$/);
  });

  it("is left out with a single runtime", () => {
    expect(renderMarkdown({ ...recorded, runtimes: [] })).not.toContain("## Runtimes");
  });
});

describe("load awareness", () => {
  const at = (start: number, end: number): BenchReport => ({
    ...recorded,
    environment: {
      ...recorded.environment,
      load: { cores: 2, start: [start, 1, 1], end: [end, 1, 1] },
    },
  });

  it("warns in the terminal and the Markdown when more than half the cores' work waited at the start", () => {
    const busy = at(8.3, 12.1);
    for (const text of [renderTerminal(busy, { colour: false }), renderMarkdown(busy)]) {
      expect(text).toContain("load 8.3 → 12.1 on 2 cores");
      expect(text).toMatch(
        /Warning: the machine was busy: load average 8.3 at the start and 12.1 at the end \(1 minute; 2 cores\)/,
      );
    }
  });

  it("records the load without a warning on a quiet machine, and says nothing without a record", () => {
    const quiet = renderTerminal(at(0.9, 3), { colour: false });
    expect(quiet).toContain("load 0.9 → 3 on 2 cores");
    expect(quiet).not.toContain("busy");
    expect(renderMarkdown(recorded)).not.toMatch(/busy|load \d/);
  });
});

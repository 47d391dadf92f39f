import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compareReports } from "../compare.js";
import { type BenchReport, computeOverhead, readReport, renderJson } from "./json.js";
import { markdownTable, renderMarkdown } from "./markdown.js";
import { CAP, colourFor, renderSvg } from "./svg.js";
import { renderTerminal } from "./terminal.js";

// A real `pnpm bench --quick` run on 4 codecs and 3 payloads, recorded (see README).
const FIXTURE = fileURLToPath(new URL("../__fixtures__/report.json", import.meta.url));
const recorded = readReport(FIXTURE);
const withUnavailable: BenchReport = {
  ...recorded,
  unavailable: [{ id: "broken", packageName: "@snappykit/broken", reason: "native build missing" }],
};

describe("readReport", () => {
  it("round-trips through renderJson", () => {
    expect(JSON.parse(renderJson(recorded))).toEqual(recorded);
  });

  it("rejects a file that is not a bench report", () => {
    expect(() => readReport(fileURLToPath(new URL("../../package.json", import.meta.url)))).toThrow(
      /is not a snappykit bench report/,
    );
  });
});

describe("renderMarkdown", () => {
  const md = renderMarkdown(withUnavailable);
  const codecs = recorded.codecs.map((c) => c.id);

  it("has every section a PR description needs", () => {
    for (const title of [
      "## Speed: time per op (p50)",
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

  it("has a speed row per payload × op, a column per codec, the fastest in bold", () => {
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
    // The bold cell is the row's minimum p50.
    const cell = (row: string, i: number) => row.split("|")[i + 1]!.trim();
    const first = rows[0]!;
    const [payload, op] = [cell(first, 0).split(" ")[0]!, cell(first, 1)];
    const best = recorded.cases
      .filter((c) => c.impl === "adapter" && c.payload === payload && c.op === op)
      .sort((a, b) => a.p50 - b.p50)[0]!;
    const col =
      2 +
      header
        .split("|")
        .slice(3)
        .findIndex((h) => h.trim() === best.codec);
    expect(cell(first, col)).toMatch(/^\*\*.+\*\*$/);
  });

  it("lists unavailable codecs with their reason", () => {
    expect(md).toMatch(/\| broken\s+\| @snappykit\/broken\s+\| native build missing\s+\|/);
    expect(renderMarkdown(recorded)).toContain("Every adapter in the workspace loaded.");
  });

  it("includes the fuzzer's section when given, and a pointer otherwise", () => {
    expect(renderMarkdown(recorded, { safety: "SAFETY TABLE" })).toContain("SAFETY TABLE");
    expect(md).toContain("No fuzzing results found");
    expect(md).toContain("run `pnpm fuzz`");
  });

  it("reports a comparison with its regressions and block-sized drift", () => {
    const slower = {
      ...recorded,
      cases: recorded.cases.map((c) =>
        c.codec === recorded.reference ? { ...c, p50: c.p50 * 1.5 } : c,
      ),
    };
    const comparison = compareReports(recorded, slower, 10, "base.json");
    const out = renderMarkdown({ ...slower, comparison });
    expect(out).toContain("## Compared with baseline");
    expect(out).toMatch(/\d+ regressions?/);
    expect(out).toMatch(/Block-sized payloads \(.*beacon-block.*\): \d+ of \d+ cases within ±10 %/);
    expect(out).toContain("+50 %");
  });
});

describe("overhead", () => {
  it("pairs each raw case with its adapter case", () => {
    const rows = computeOverhead(recorded.cases);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(recorded.overhead);
    for (const r of rows)
      expect(r.percent).toBeCloseTo(((r.adapterP50 - r.rawP50) / r.rawP50) * 100);
  });
});

describe("renderSvg", () => {
  const svg = renderSvg(recorded);

  it("is a well-formed standalone SVG", () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
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

  it("draws one coloured cell per adapter case, the fastest of each row outlined", () => {
    const cells = svg.match(/<rect [^>]*height="20" fill="hsl\(/g) ?? [];
    expect(cells).toHaveLength(recorded.cases.filter((c) => c.impl === "adapter").length);
    const rows = new Set(recorded.cases.map((c) => `${c.payload}/${c.op}`)).size;
    const best = (svg.match(/class="best"/g) ?? []).length;
    expect(best).toBeGreaterThanOrEqual(rows);
    expect(svg.match(/class="cell fastest" text-anchor="middle">1×<\/text>/g)).toHaveLength(best);
    expect(svg).toContain(`≥${CAP}×</text>`);
  });

  it("scales colour from green at 1× to red at the cap", () => {
    expect(colourFor(1)).toBe("hsl(130, 70%, 70%)");
    expect(colourFor(CAP)).toBe("hsl(0, 70%, 62%)");
    expect(colourFor(100)).toBe(colourFor(CAP));
  });
});

describe("renderTerminal", () => {
  it("prints the main tables without colour codes when not a TTY", () => {
    const text = renderTerminal(withUnavailable, false);
    expect(text).toContain("Time per op, p50 (* = fastest)");
    expect(text).toContain("Unavailable codecs");
    expect(text).not.toContain("\x1b[");
  });

  it("marks the fastest cells bold on a TTY", () => {
    expect(renderTerminal(recorded, true)).toContain("\x1b[1m");
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

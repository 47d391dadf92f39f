// The charts as a README reader sees them: each committed SVG (apps/bench/docs) and fresh
// renderings of the fixtures, shown 830 px wide (GitHub's README column) in headless
// Chromium, measured from the text boxes it lays out.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launchChromium } from "@snappykit/workspace/chromium";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepReport } from "../__fixtures__/sweep.js";
import { readReport } from "../inputs/reports.js";
import type { BenchReport } from "../model/report.js";
import { renderSvg, renderSweepSvg } from "./charts.js";

const DISPLAY = 830;
const docs = fileURLToPath(new URL("../../docs/", import.meta.url));
const fixture = readReport(fileURLToPath(new URL("../__fixtures__/report.json", import.meta.url)));

const charts: [string, string][] = [
  ...readdirSync(docs)
    .filter((f) => f.endsWith(".svg"))
    .map((f): [string, string] => [`docs/${f}`, readFileSync(`${docs}${f}`, "utf8")]),
  ["fixture bench", renderSvg(fixture)],
  ["fixture sweep", renderSweepSvg(sweepReport())],
  // The req/resp run's ops are the longest column names: they wrap.
  ["docs/reqresp.json rendered", renderSvg(readReport(`${docs}reqresp.json`))],
];

interface Box {
  readonly text: string;
  readonly px: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** Every text of `svg` as laid out at 830 px: its box and its font size on screen. */
async function layout(browser: Browser, svg: string) {
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    const shown = svg.replace(
      "<svg ",
      `<svg id="chart" style="display:block;width:${DISPLAY}px;height:auto" `,
    );
    await page.setContent(`<!doctype html><body style="margin:0">${shown}</body>`);
    return await page.evaluate(() => {
      // The page's DOM, typed as far as used (the package compiles without the DOM lib).
      interface Rect {
        left: number;
        right: number;
        top: number;
        bottom: number;
        width: number;
      }
      interface Node {
        textContent: string | null;
        getAttribute(name: string): string | null;
        getBoundingClientRect(): Rect;
      }
      const page = globalThis as unknown as {
        document: {
          getElementById(id: string): Node & {
            viewBox: { baseVal: { width: number } };
            querySelectorAll(selector: string): Iterable<Node>;
          };
        };
        getComputedStyle(node: Node): { fontSize: string; fill: string };
      };
      const chart = page.document.getElementById("chart");
      const frame = chart.getBoundingClientRect();
      const scale = frame.width / chart.viewBox.baseVal.width;
      const texts = [...chart.querySelectorAll("text")].map((t) => {
        const r = t.getBoundingClientRect();
        return {
          text: t.textContent ?? "",
          px: Number.parseFloat(page.getComputedStyle(t).fontSize) * scale,
          left: r.left - frame.left,
          right: r.right - frame.left,
          top: r.top - frame.top,
          bottom: r.bottom - frame.top,
        };
      });
      // A heat map's cell is labelled "codec · payload · op".
      const cells = [...chart.querySelectorAll('path[aria-roledescription="rect mark"]')].map(
        (r) => ({ label: r.getAttribute("aria-label"), fill: page.getComputedStyle(r).fill }),
      );
      return { width: frame.width, texts, cells };
    });
  } finally {
    await page.close();
  }
}

/** Pairs of texts whose boxes overlap by more than the 1 px that stacked lines may touch. */
function overlaps(boxes: readonly Box[]): string[] {
  const out: string[] = [];
  const sorted = [...boxes].sort((a, b) => a.top - b.top);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length && sorted[j]!.top < a.bottom - 1; j++) {
      const b = sorted[j]!;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) out.push(`"${a.text}" / "${b.text}"`);
    }
  }
  return out;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe.each(charts)("%s at 830 px in Chromium", (_name, svg) => {
  it("has no text under 11 px, none outside the chart, and no two texts overlapping", async () => {
    const { width, texts } = await layout(browser, svg);
    expect(width).toBe(DISPLAY);
    const boxes = texts.filter((t) => t.text.trim() !== "" && t.right > t.left);
    const small = boxes
      .filter((t) => t.px < 11 - 1e-6)
      .map((t) => `"${t.text}" ${t.px.toFixed(1)} px`);
    expect(small).toEqual([]);
    const outside = boxes
      .filter((t) => t.left < -0.5 || t.right > DISPLAY + 0.5)
      .map((t) => t.text);
    expect(outside).toEqual([]);
    expect(overlaps(boxes)).toEqual([]);
  });
});

describe.each(charts.filter(([name]) => !/sweep|reqresp/.test(name)))("%s", (name, svg) => {
  it("colours each async op against its own fastest codec", async () => {
    const report: BenchReport = name.startsWith("docs/")
      ? readReport(`${docs}${name.slice(5).replace(/\.svg$/, ".json")}`)
      : fixture;
    const { cells } = await layout(browser, svg);
    const rows = report.relative.filter((r) => r.op.endsWith("-async"));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const cases = report.cases.filter(
        (c) => c.impl === "adapter" && c.payload === r.payload && c.op === r.op,
      );
      const fastest = cases.reduce((a, b) => (b.p50 < a.p50 ? b : a));
      const cell = cells.find((c) => c.label === `${fastest.codec} · ${r.payload} · ${r.op}`);
      // Viridis's light end: 1×, the fastest.
      expect(cell?.fill, `${r.payload} ${r.op} ${fastest.codec}`).toBe("rgb(253, 231, 37)");
    }
  });
});

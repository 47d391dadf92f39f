import { describe, expect, it } from "vitest";
import { generatedBlocks, withGeneratedBlocks } from "./markers.js";

const doc = [
  "# Title",
  "",
  "<!-- generated: bench-ratios payloads=a,b codecs=ts -->",
  "old table",
  "<!-- /generated -->",
  "",
  "by hand",
  "<!-- generated: soak-summary -->",
  "old line",
  "<!-- /generated -->",
  "",
].join("\n");

describe("generatedBlocks", () => {
  it("finds each block with its section, arguments, line and body", () => {
    const blocks = generatedBlocks(doc);
    expect(blocks.map((b) => [b.section, b.args, b.line, b.body.trim()])).toEqual([
      ["bench-ratios", ["payloads=a,b", "codecs=ts"], 3, "old table"],
      ["soak-summary", [], 8, "old line"],
    ]);
  });

  it("names the line of a block that never ends, or starts inside another", () => {
    expect(() => generatedBlocks("x\n<!-- generated: adapters -->\ntable\n")).toThrow(
      /line 2: .* has no <!-- \/generated -->/,
    );
    expect(() =>
      generatedBlocks(
        "<!-- generated: adapters -->\n<!-- generated: payloads -->\n<!-- /generated -->\n",
      ),
    ).toThrow(/line 1: a generated block starts inside another/);
  });
});

describe("withGeneratedBlocks", () => {
  it("replaces every body and nothing else, and is stable", () => {
    const once = withGeneratedBlocks(doc, (b) => `new ${b.section}`);
    expect(once).toBe(
      doc
        .replace("\nold table\n", "\n\nnew bench-ratios\n\n")
        .replace("\nold line\n", "\n\nnew soak-summary\n\n"),
    );
    expect(withGeneratedBlocks(once, (b) => `new ${b.section}`)).toBe(once);
  });
});

import { describe, expect, it } from "vitest";
import { formatBytes, formatDuration, markdownTable } from "./format.js";

describe("format", () => {
  it("writes sizes with three significant figures and binary units", () => {
    expect([0, 1023, 1024, 100_147, 5 * 2 ** 20, 2 ** 31, Number.NaN].map(formatBytes)).toEqual([
      "0 B",
      "1023 B",
      "1.00 KiB",
      "97.8 KiB",
      "5.00 MiB",
      "2.00 GiB",
      "n/a",
    ]);
  });

  it("writes durations in minutes and seconds", () => {
    expect([0, 42_400, 60_000, 83_000, 240_499].map(formatDuration)).toEqual([
      "0 s",
      "42 s",
      "1 min 0 s",
      "1 min 23 s",
      "4 min 0 s",
    ]);
  });

  it("pads, aligns and escapes a Markdown table", () => {
    expect(
      markdownTable(
        ["name", "µs"],
        ["l", "r"],
        [
          ["a|b", "1.5"],
          ["ç", "12"],
        ],
      ),
    ).toBe(["| name |  µs |", "| ---- | --: |", "| a\\|b | 1.5 |", "| ç    |  12 |"].join("\n"));
  });
});

import { describe, expect, it } from "vitest";
import type { CaseMeasurement } from "../model/timing.js";
import { summarise, wideRows } from "./results.js";

const measured = (
  codec: string,
  row: number,
  forkMedians: number[],
  impl: "adapter" | "raw" = "adapter",
): CaseMeasurement => ({
  spec: { codec, impl, entry: "" },
  row,
  forkMedians,
  samples: [],
  batch: 1,
  alloc: { heap: 0, external: 0 },
  peaks: [],
  wallMs: 0,
});

// Nine forks in which the reference drifts by ±20 % but the codec keeps pace with it.
const drift = [100, 120, 80, 110, 90, 100, 120, 80, 100];
const steady = drift.map((x) => x * 2);
// A codec whose processes are bimodal: the ratio to the reference jumps between 2 and 3.
const bimodal = drift.map((x, i) => x * (i % 2 ? 3 : 2));

describe("wideRows", () => {
  it("names rows by the ratio to the reference, not by the drift both share", () => {
    const ms = [
      measured("napi", 0, drift),
      measured("ts", 0, steady),
      measured("napi", 1, drift),
      measured("ts", 1, bimodal),
    ];
    expect(wideRows(ms, "napi", 5)).toEqual([1]);
    expect(wideRows(ms, "napi", 30)).toEqual([]);
  });

  it("judges a raw case against its own adapter", () => {
    const ms = [
      measured("napi", 0, drift),
      measured("ts", 0, steady),
      measured("ts", 0, bimodal, "raw"),
    ];
    expect(wideRows(ms, "napi", 5)).toEqual([0]);
  });

  it("counts a row with too few forks for an interval as wide", () => {
    expect(wideRows([measured("napi", 3, [100]), measured("ts", 3, [200])], "napi", 5)).toEqual([
      3,
    ]);
  });
});

describe("summarise", () => {
  const id = {
    key: "k",
    codec: "ts",
    impl: "adapter",
    library: "l",
    payload: "p",
    op: "o",
    items: 1,
    bytes: 10,
  } as const;

  it("gives the peak as the median of the forks that measured one, with their range", () => {
    const m = { ...measured("ts", 0, [1, 2, 3]), peaks: [30, 10, 20] };
    expect(summarise(id, m).peak).toEqual({ bytes: 20, low: 10, high: 30, forks: 3 });
    expect(summarise(id, measured("ts", 0, [1, 2, 3]))).not.toHaveProperty("peak");
  });
});

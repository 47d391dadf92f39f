import { describe, expect, it } from "vitest";
import { SLOWED, trialRun } from "./trials.mjs";

const entry = (codec, impl, payload, op, verdict, judgedBy = "ratio") => ({
  key: `${codec}/${impl}/${payload}/${op}`,
  codec,
  impl,
  payload,
  op,
  verdict,
  judgedBy,
  absolute: { change: 3 },
  ...(judgedBy === "ratio" && { ratio: { change: 21 } }),
});

const report = (comparison) => ({
  command: "pnpm bench …",
  environment: { load: { cores: 2, start: [0.2, 0.1, 0.1], end: [1.1, 0.4, 0.2] } },
  cases: [{ forks: 9 }, { forks: 21 }, { forks: 12 }],
  comparison,
  compared: { testable: comparison.length },
});

describe("trialRun", () => {
  it("counts the slowed codec's slower verdicts and every other flagged case", () => {
    const run = trialRun(
      "slow1",
      report([
        entry(SLOWED.codec, "adapter", "beacon-block", "compress", "slower"),
        entry(SLOWED.codec, "raw", "beacon-block", "compress", "slower"),
        entry(SLOWED.codec, "adapter", "blob-sidecar", "uncompress", "within noise"),
        entry("snappyjs", "adapter", "beacon-block", "compress", "faster"),
        entry("napi", "adapter", "beacon-block", "compress", "no significant change", "absolute"),
      ]),
    );
    expect(run).toMatchObject({
      name: "slow1",
      cases: 5,
      slowedCases: 3,
      slowedFlaggedSlower: 2,
      othersFlagged: 1,
      testable: 5,
      forks: [9, 21],
    });
    expect(run.flagged.map((f) => [f.key, f.change])).toEqual([
      ["ts/adapter/beacon-block/compress", 21],
      ["ts/raw/beacon-block/compress", 21],
      ["snappyjs/adapter/beacon-block/compress", 21],
    ]);
  });

  it("does not count a slowed case flagged faster as found", () => {
    const run = trialRun(
      "slow2",
      report([entry(SLOWED.codec, "adapter", "x", "compress", "faster")]),
    );
    expect(run.slowedFlaggedSlower).toBe(0);
    expect(run.flagged).toHaveLength(1);
  });

  it("takes the absolute change for cases judged on their times", () => {
    const run = trialRun(
      "rerun1",
      report([entry("napi", "adapter", "x", "compress", "slower", "absolute")]),
    );
    expect(run.flagged[0].change).toBe(3);
    expect(run.othersFlagged).toBe(1);
  });
});

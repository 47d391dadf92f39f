import { SnappyError } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import {
  classifyReturn,
  classifyThrow,
  emptyStats,
  mergeStats,
  missedTargets,
  RSS_LIMIT_BYTES,
  record,
  toHex,
} from "./outcome.js";

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("classifyReturn", () => {
  it("is same only for identical bytes", () => {
    expect(classifyReturn(bytes(1, 2, 3), bytes(1, 2, 3))).toBe("same");
    expect(classifyReturn(Buffer.from([1, 2, 3]), bytes(1, 2, 3))).toBe("same");
    expect(classifyReturn(bytes(1, 2, 4), bytes(1, 2, 3))).toBe("wrongBytes");
    expect(classifyReturn(bytes(1, 2), bytes(1, 2, 3))).toBe("wrongBytes");
    expect(classifyReturn(bytes(1, 2, 3, 0), bytes(1, 2, 3))).toBe("wrongBytes");
  });

  it("calls a non-byte result wrong bytes", () => {
    expect(classifyReturn("abc", bytes(0x61, 0x62, 0x63))).toBe("wrongBytes");
    expect(classifyReturn(undefined, new Uint8Array(0))).toBe("wrongBytes");
  });

  it("calls any result for a rejected input a silent accept", () => {
    expect(classifyReturn(new Uint8Array(0), null)).toBe("silentAccept");
    expect(classifyReturn(undefined, null)).toBe("silentAccept");
  });
});

describe("classifyThrow", () => {
  it("separates SnappyError from other errors, and false rejects", () => {
    expect(classifyThrow(new SnappyError("backend-rejected", "x"), null)).toBe("rejected");
    expect(classifyThrow(new Error("x"), null)).toBe("rejectedOther");
    expect(classifyThrow("a string", null)).toBe("rejectedOther");
    expect(classifyThrow(new SnappyError("backend-rejected", "x"), bytes(1))).toBe("falseReject");
  });
});

describe("record and missedTargets", () => {
  it("counts outcomes, slow calls and memory, and keeps examples of failures only", () => {
    const stats = emptyStats();
    record(stats, 0, bytes(0), { outcome: "rejected", ms: 0.1, rssGrowth: 0 });
    record(stats, 1, bytes(1), { outcome: "same", ms: 150, rssGrowth: 0 });
    record(stats, 2, bytes(0xab, 0xcd), {
      outcome: "silentAccept",
      ms: 1,
      rssGrowth: RSS_LIMIT_BYTES,
      detail: "returned 2147483648 bytes",
    });
    expect(stats.calls).toBe(3);
    expect(stats.counts).toMatchObject({ rejected: 1, same: 1, silentAccept: 1, crash: 0 });
    expect(stats.slow).toBe(1);
    expect(stats.rssOver).toBe(1);
    expect(stats.maxMs).toBe(150);
    expect(stats.examples.rejected).toBeUndefined();
    expect(stats.examples.silentAccept).toEqual([
      {
        index: 2,
        hex: "abcd",
        ms: 1,
        rssGrowth: RSS_LIMIT_BYTES,
        detail: "returned 2147483648 bytes",
      },
    ]);
    expect(stats.examples.slow?.[0]?.index).toBe(1);
    expect(missedTargets(stats)).toEqual([
      "1 silent accept(s)",
      "1 call(s) over 100 ms",
      "1 call(s) with peak RSS growth ≥ 64 MB",
    ]);
  });

  it("passes a clean tally, and excuses raw libraries their own error type", () => {
    const clean = emptyStats();
    record(clean, 0, bytes(0), { outcome: "rejected", ms: 1, rssGrowth: RSS_LIMIT_BYTES - 1 });
    expect(missedTargets(clean)).toEqual([]);
    const raw = emptyStats();
    record(raw, 0, bytes(0), { outcome: "rejectedOther", ms: 1, rssGrowth: 0 });
    expect(missedTargets(raw, "raw")).toEqual([]);
    expect(missedTargets(raw, "adapter")).toEqual(["1 non-SnappyError throw(s)"]);
  });

  it("merges cells", () => {
    const a = emptyStats();
    const b = emptyStats();
    record(a, 0, bytes(0), { outcome: "hang", ms: 2000, rssGrowth: 5 });
    record(b, 0, bytes(0), { outcome: "crash", ms: 0, rssGrowth: 9 });
    const total = mergeStats([a, b]);
    expect(total.calls).toBe(2);
    expect(total.counts.hang + total.counts.crash).toBe(2);
    expect(total.maxRssGrowth).toBe(9);
    expect(total.slow).toBe(1);
  });

  it("cuts long hex", () => {
    expect(toHex(new Uint8Array(300))).toHaveLength(512 + 1);
  });
});

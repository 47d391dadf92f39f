// A small async run: waves in flight on the libsnappy adapter (no variants, so one child),
// every result checked; and the plan really contains each kind of call with the expectation
// it claims.
import { createCodec } from "@snappykit/napi";
import { describe, expect, it } from "vitest";
import { planWave } from "./plan.js";
import { renderAsyncMarkdown, runAsyncFuzz } from "./run.js";

describe("async plan", () => {
  it("mixes every kind of call, hostile ones expecting a rejection", async () => {
    const codec = await createCodec();
    const plan = planWave(codec, 600, 7, 0);
    const kinds = new Set(plan.map((c) => c.kind));
    expect([...kinds].sort()).toEqual([
      "badArgument",
      "compress",
      "hostile",
      "mutated",
      "overMaxLength",
      "uncompress",
    ]);
    for (const call of plan) {
      if (call.kind === "hostile" || call.kind === "overMaxLength" || call.kind === "badArgument") {
        expect(call.expected).toBeNull();
      }
      if (call.kind === "uncompress" || call.kind === "compress")
        expect(call.expected).not.toBeNull();
    }
  });
});

describe("quick async fuzz", () => {
  it("libsnappy: every call of 1,200 in waves of 600 resolves or rejects as planned", async () => {
    const report = await runAsyncFuzz({ calls: 1200, wave: 600, codecs: ["libsnappy"] });
    const rows = report.rows.filter((r) => r.result);
    expect(rows.map((r) => r.id)).toEqual(["libsnappy"]);
    for (const row of rows) {
      const r = row.result!;
      expect(r.problems, row.id).toEqual([]);
      expect(r.calls).toBe(1200);
      expect(r.maxInFlight).toBe(600);
      expect(r.resolvedOk + r.rejectedOk).toBe(1200);
    }
    expect(renderAsyncMarkdown(report)).toContain("| libsnappy (snappy@6");
  });
});

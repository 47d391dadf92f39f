// A small async run: waves in flight on the napi adapter, every result checked; and the plan
// really contains each kind of call with the expectation it claims.
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
  it("napi: every call of 1,200 in waves of 600 resolves or rejects as planned", async () => {
    const report = await runAsyncFuzz({ calls: 1200, wave: 600, codecs: ["napi"] });
    const rows = report.rows.filter((r) => r.result);
    expect(rows.map((r) => r.id).sort()).toEqual(["napi", "napi-copy", "napi-external"]);
    for (const row of rows) {
      const r = row.result!;
      expect(r.problems, row.id).toEqual([]);
      expect(r.calls).toBe(1200);
      expect(r.maxInFlight).toBe(600);
      expect(r.resolvedOk + r.rejectedOk).toBe(1200);
    }
    expect(renderAsyncMarkdown(report)).toContain("| napi (snappy@");
  });
});

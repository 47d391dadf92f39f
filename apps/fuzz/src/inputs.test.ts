import { legalForms, mutate, oracleUncompress, prng } from "@snappykit/conformance/cases";
import { describe, expect, it } from "vitest";
import { tsUncompress } from "./guided/targets.js";
import { craftedSet, legalFormSeeds, mutatedSet, poolPlaintexts, randomSet } from "./inputs.js";
import { referenceOutcome } from "./reference.js";

describe("input sets", () => {
  it("are deterministic from the seed", () => {
    expect(randomSet(50, 7).inputs).toEqual(randomSet(50, 7).inputs);
    expect(randomSet(50, 7).inputs).not.toEqual(randomSet(50, 8).inputs);
  });

  it("random inputs are 1–128 bytes and cover the range", () => {
    const lengths = randomSet(2000, 1).inputs.map((i) => i.length);
    expect(Math.min(...lengths)).toBe(1);
    expect(Math.max(...lengths)).toBe(128);
  });

  it("mutations change at most 4 bytes or truncate", () => {
    const stream = Uint8Array.from({ length: 100 }, (_, i) => i);
    const next = prng(3);
    let truncated = 0;
    for (let k = 0; k < 500; k++) {
      const m = mutate(stream, next);
      expect(m.length).toBeGreaterThanOrEqual(1);
      expect(m.length).toBeLessThanOrEqual(100);
      if (m.length < 100) truncated++;
      const changed = m.reduce((n, b, i) => n + (b !== stream[i] ? 1 : 0), 0);
      expect(changed).toBeLessThanOrEqual(4);
    }
    expect(truncated / 500).toBeGreaterThan(0.15);
    expect(truncated / 500).toBeLessThan(0.35);
  });

  it("crafted set: hostile cases rejected by the reference, valid streams decoded", () => {
    const set = craftedSet();
    const verdicts = set.inputs.map((input, i) => referenceOutcome(input, set.maxLength[i]));
    set.labels!.forEach((label, i) => {
      expect(verdicts[i] !== null, label).toBe(label.startsWith("valid: "));
    });
  });

  it("pool plaintexts are prefixes of the items", () => {
    const item = Uint8Array.from({ length: 3000 }, (_, i) => i & 0xff);
    const pool = poolPlaintexts([item, Uint8Array.of(1, 2, 3)]);
    expect(pool.map((p) => p.length)).toEqual([24, 64, 160, 400, 1000, 2500, 3]);
    expect(mutatedSet(pool, 10, 1).inputs).toHaveLength(10);
  });

  it("legal-form seeds: valid, small, the short extended literal last among them", async () => {
    const seeds = legalFormSeeds(96, 4096).map((c) => c.stream);
    expect(seeds).toHaveLength(96);
    expect(legalFormSeeds(96, 4096).map((c) => c.stream)).toEqual(seeds);
    const hex = seeds.map((s) => Buffer.from(s).toString("hex"));
    // A 1-byte literal in the 1-byte length form as the last element (Lodestar's case).
    expect(hex).toContain("01f000a0");
    for (const seed of seeds) {
      expect(seed.length).toBeLessThanOrEqual(4096);
      oracleUncompress(seed);
    }
    // Spread over the generator, not only its shortest streams.
    const all = legalForms().map((c) => c.stream);
    expect(new Set(seeds.map((s) => all.indexOf(s))).size).toBe(96);
    expect(Math.max(...seeds.map((s) => s.length))).toBeGreaterThan(1000);
    // The guided ts-uncompress target starts from them too.
    const guided = (await tsUncompress.seeds()).map((s) => Buffer.from(s).toString("hex"));
    for (const h of hex.slice(0, 10)) expect(guided).toContain(h);
  });
});

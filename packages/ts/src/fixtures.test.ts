import { getGolden, loadPayloads } from "@snappykit/fixtures";
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { uncompress } from "./decompress.js";
import { firstDifference, oracleCompress } from "./test-support/inputs.js";

const payloads = loadPayloads();

describe("every fixture", () => {
  it("there are fixtures to check", () => {
    expect(payloads.length).toBeGreaterThan(0);
  });

  it.each(payloads.map((p) => [p.name, p] as const))(
    "%s: same bytes as snappy@7 and as libsnappy's golden vectors; decodes both",
    (name, payload) => {
      // Golden vectors were written by Google's C++ libsnappy (snappy@6) at generation time.
      const golden = getGolden(name);
      expect(golden.length).toBe(payload.items.length);
      payload.items.forEach((item, i) => {
        const ours = compress(item);
        expect(firstDifference(ours, oracleCompress(item)), `item ${i} vs snappy@7`).toBe(-1);
        expect(firstDifference(ours, golden[i]!), `item ${i} vs libsnappy`).toBe(-1);
        expect(firstDifference(uncompress(golden[i]!), item), `item ${i} decode`).toBe(-1);
      });
    },
  );
});

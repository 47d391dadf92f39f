import { describe, expect, it } from "vitest";
import { thresholdsFromSweep } from "./thresholds.mjs";

const environment = {
  commit: "0123456789abcdef0123456789abcdef01234567",
  node: "v20.20.2",
  machine: "test machine",
  date: "2026-11-30T12:00:00.000Z",
  command: "pnpm bench --sweep",
};
const point = (codec, op, size, p50) => ({ codec, op, size, p50 });

describe("thresholdsFromSweep", () => {
  it("takes the ts/napi crossover per op, in either codec order, with the provenance", () => {
    const data = thresholdsFromSweep(
      {
        environment,
        points: [],
        crossover: [
          { op: "compress", codecs: ["ts", "napi"], size: 5690.6, ci: { low: 5000, high: 8192 } },
          { op: "uncompress", codecs: ["napi", "ts"], size: 4118, ci: null },
          { op: "compress", codecs: ["ts", "libsnappy"], size: 99 },
        ],
      },
      "pnpm --filter @snappykit/auto run thresholds sweep.json",
    );
    expect(data.compress).toBe(5691);
    expect(data.uncompress).toBe(4118);
    expect(data.provenance).toMatchObject({
      ...environment,
      generatedBy: "pnpm --filter @snappykit/auto run thresholds sweep.json",
    });
    expect(data.provenance.crossover.compress).toEqual({
      size: 5690.6,
      ci: { low: 5000, high: 8192 },
    });
  });

  it("with no crossing in range, sends everything to whichever codec wins most sizes", () => {
    const points = [64, 1024, 65536].flatMap((size) => [
      point("ts", "compress", size, 10),
      point("napi", "compress", size, 5),
      point("ts", "uncompress", size, 5),
      point("napi", "uncompress", size, 10),
    ]);
    const data = thresholdsFromSweep(
      {
        environment,
        points,
        crossover: [
          { op: "compress", codecs: ["ts", "napi"], size: null },
          { op: "uncompress", codecs: ["ts", "napi"], size: null },
        ],
      },
      "x",
    );
    expect(data.compress).toBe(0);
    expect(data.uncompress).toBeNull();
  });

  it("refuses a sweep without the ts/napi pair", () => {
    expect(() => thresholdsFromSweep({ environment, points: [], crossover: [] }, "x")).toThrow(
      /no ts\/napi crossover entry for compress/,
    );
  });
});

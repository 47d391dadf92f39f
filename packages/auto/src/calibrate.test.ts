import { describe, expect, it } from "vitest";
import { type SweepForThresholds, thresholdsFromSweep } from "./calibrate.js";

const environment = {
  commit: "0123456789abcdef0123456789abcdef01234567",
  node: "v20.20.2",
  machine: "test machine",
  date: "2026-11-30T12:00:00.000Z",
  command: "pnpm bench --sweep",
};
type Series = NonNullable<SweepForThresholds["series"]>[number];
const point = (codec: string, op: string, size: number, p50: number) => ({ codec, op, size, p50 });
const series = (
  name: string,
  ratio: number,
  crossover: Series["crossover"],
  points: Series["points"] = [],
): Series => ({ name, ratio, points, crossover });

describe("thresholdsFromSweep", () => {
  it("takes the ts/napi crossover per op and series, in either codec order, with the provenance", () => {
    const data = thresholdsFromSweep(
      {
        environment,
        series: [
          series("blocks", 1.8, [
            {
              op: "compress",
              codecs: ["ts", "napi"],
              size: 5690.6,
              ci: { low: 5000, high: 8192, level: 0.96 },
            },
            { op: "uncompress", codecs: ["napi", "ts"], size: 4118, ci: null },
            { op: "compress", codecs: ["ts", "libsnappy"], size: 99 },
          ]),
          series("sidecars", 1.0, [
            { op: "compress", codecs: ["ts", "napi"], size: 70000.4 },
            { op: "uncompress", codecs: ["ts", "napi"], size: 50000 },
          ]),
        ],
      },
      "pnpm --filter @snappykit/auto run thresholds sweep.json",
    );
    expect(data.compress).toEqual({ compressible: 5691, incompressible: 70000 });
    expect(data.uncompress).toEqual({ compressible: 4118, incompressible: 50000 });
    expect(data.provenance).toMatchObject({
      ...environment,
      generatedBy: "pnpm --filter @snappykit/auto run thresholds sweep.json",
    });
    expect(data.provenance.crossover.compress.compressible).toEqual({
      series: "blocks",
      ratio: 1.8,
      size: 5690.6,
      ci: { low: 5000, high: 8192, level: 0.96 },
    });
    expect(data.provenance.source).toBe("shipped");
  });

  it("with no crossing in range, sends everything to whichever codec wins most sizes", () => {
    const points = [64, 1024, 65536].flatMap((size) => [
      point("ts", "compress", size, 10),
      point("napi", "compress", size, 5),
      point("ts", "uncompress", size, 5),
      point("napi", "uncompress", size, 10),
    ]);
    const none = [
      { op: "compress", codecs: ["ts", "napi"], size: null },
      { op: "uncompress", codecs: ["ts", "napi"], size: null },
    ];
    const data = thresholdsFromSweep(
      {
        environment,
        series: [series("blocks", 2, none, points), series("sidecars", 1, none, points)],
      },
      "x",
    );
    expect(data.compress).toEqual({ compressible: 0, incompressible: 0 });
    expect(data.uncompress).toEqual({ compressible: null, incompressible: null });
  });

  it("names a calibration as such, with the Node its forks ran in and the machine in words", () => {
    const none = [
      { op: "compress", codecs: ["ts", "napi"], size: 4000 },
      { op: "uncompress", codecs: ["ts", "napi"], size: 8000 },
    ];
    const data = thresholdsFromSweep(
      {
        command: "pnpm bench --calibrate",
        environment: {
          commit: null,
          node: "v20.20.2",
          date: "2026-12-01T12:00:00.000Z",
          cpu: "Apple M3",
          cores: 8,
          os: "Darwin 24.1.0",
          arch: "arm64",
          memoryGiB: 16,
          runtime: { name: "node26", version: "26.10.0" },
        },
        series: [series("blocks", 1.8, none), series("sidecars", 1, none)],
      },
      "pnpm bench --calibrate",
      "calibrated",
    );
    expect(data.provenance).toMatchObject({
      source: "calibrated",
      node: "v26.10.0",
      machine: "Apple M3 ×8, Darwin 24.1.0 arm64, 16 GiB",
      command: "pnpm bench --calibrate",
      commit: "unknown",
    });
  });

  it("refuses a sweep without the series or the ts/napi pair", () => {
    expect(() => thresholdsFromSweep({ environment } as SweepForThresholds, "x")).toThrow(
      /no "blocks" series/,
    );
    expect(() =>
      thresholdsFromSweep(
        { environment, series: [series("blocks", 2, []), series("sidecars", 1, [])] },
        "x",
      ),
    ).toThrow(/blocks series has no ts\/napi crossover for compress/);
  });
});

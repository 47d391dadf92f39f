import { describe, expect, it } from "vitest";
import { sweepCase as result, sweepResults as results, runtime } from "../__fixtures__/sweep.js";
import { SWEEP_SIZES } from "../model/sweep.js";
import { combineSeries, sweepCrossovers, sweepPoints } from "./sweep.js";

describe("combineSeries", () => {
  it("adds a codec's block and sidecar cases fork by fork into one case of both", () => {
    const series = (name: string, ns: number) => {
      const r = result("ts", "compress", 1024, ns / 2);
      return { ...r, payload: `sweep-${name}-1024`, items: 1, bytes: 1024 };
    };
    const lost = {
      ...series("sidecars", 300),
      forkMedians: [null, ...series("x", 300).forkMedians.slice(1)],
    };
    const [both] = combineSeries([series("blocks", 100), lost]);
    expect(both).toMatchObject({ payload: "sweep-1024", items: 2, bytes: 2048, forks: 8 });
    expect(both!.forkMedians[0]).toBeNull();
    expect(both!.forkMedians[1]).toBeCloseTo(404, 6); // 1.01 × (100 + 300)
    expect(both!.p50).toBeGreaterThan(390);
    expect(both!.p50).toBeLessThan(410);
    expect(sweepPoints([both!])[0]).toMatchObject({ size: 1024, forks: 8 });
  });
});

describe("sweepPoints", () => {
  it("reports per message and MB/s", () => {
    const [p] = sweepPoints([result("ts", "compress", 1024, 1024)]);
    expect(p).toMatchObject({ codec: "ts", op: "compress", size: 1024, p50: 1024, forks: 9 });
    expect(p!.mbps).toBeCloseTo(1000, 6); // 1 byte per ns
    expect(p!.ci!.low).toBeLessThan(1024);
  });
});

describe("sweepCrossovers", () => {
  const out = sweepCrossovers(results, "compress", runtime);

  it("gives ts vs napi, ts vs the fastest native and JS/wasm vs native", () => {
    expect(out.map((c) => c.kind).sort()).toEqual(["js-vs-native", "ts-vs-napi", "ts-vs-native"]);
    const c = out.find((x) => x.kind === "ts-vs-napi")!;
    expect(c.codecs).toEqual(["ts", "napi"]);
    expect(c.fasterBelow).toBe("ts");
    // Linear in log–log between 256 B and 1 KiB brackets the true 800 B.
    expect(c.size!).toBeGreaterThan(256);
    expect(c.size!).toBeLessThan(1024);
    expect(c.ci!.low!).toBeLessThanOrEqual(c.size!);
    expect(c.ci!.high!).toBeGreaterThanOrEqual(c.size!);
    expect(c.pairs).toBeUndefined();
    const env = out.find((x) => x.kind === "js-vs-native")!;
    expect(env.codecs).toEqual(["ts", "napi"]); // ts is the fastest non-native everywhere
    expect(env.pairs).toHaveLength(SWEEP_SIZES.length);
  });

  it("leaves out a kind whose codecs did not run, and says when nothing crosses", () => {
    const noTs = sweepCrossovers(
      results.filter((r) => r.codec !== "ts"),
      "compress",
      runtime,
    );
    expect(noTs.map((c) => c.kind)).toEqual(["js-vs-native"]);
    // hysnappy is slower than napi from 256 B on, but faster at 64 B only by its fixed cost.
    const slow = sweepCrossovers(
      SWEEP_SIZES.map((s) => result("hysnappy", "compress", s, 1000 + s)).concat(
        SWEEP_SIZES.map((s) => result("napi", "compress", s, 500 + s / 4)),
      ),
      "compress",
      runtime,
    );
    expect(slow[0]!.size).toBeNull();
    expect(slow[0]!.reason).toMatch(/^never in range: the fastest native codec is faster/);
  });
});

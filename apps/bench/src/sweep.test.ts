import { describe, expect, it } from "vitest";
import type { CaseResult } from "./report/schema.js";
import { renderSweepMarkdown } from "./report/sweep-md.js";
import { renderSweepSvg, spreadLabels } from "./report/sweep-svg.js";
import {
  combineSeries,
  SWEEP_SIZES,
  type SweepReport,
  sweepCrossovers,
  sweepPayloads,
  sweepPoints,
} from "./sweep.js";

/** A case whose fork medians are `ns` × (1, 1.01, 0.99, …): a tight interval around ns. */
function result(codec: string, op: string, size: number, ns: number): CaseResult {
  const forkMedians = [1, 1.01, 0.99, 1.02, 0.98, 1.005, 0.995, 1.015, 0.985].map(
    (f) => f * ns * 2,
  );
  const sorted = [...forkMedians].sort((a, b) => a - b);
  return {
    key: `${codec}/sweep-${size}/${op}`,
    codec,
    impl: "adapter",
    library: codec,
    payload: `sweep-${size}`,
    op,
    items: 2,
    bytes: 2 * size,
    batch: 1,
    samples: 9,
    forks: 9,
    forkMedians,
    p50: sorted[4]!,
    ci: { low: sorted[1]!, high: sorted[7]!, level: 0.96 },
    p75: 0,
    p99: 0,
    min: 0,
    max: 0,
    alloc: { heap: 0, external: 0 },
    wallMs: 0,
  };
}

// Per message: ts costs 200 ns + 1 ns/B, napi 800 ns + 0.25 ns/B, hysnappy (wasm) always
// slower than ts: ts = napi at 800 B (200 + x = 800 + x/4).
const cost = {
  ts: (s: number) => 200 + s,
  napi: (s: number) => 800 + s / 4,
  hysnappy: (s: number) => 400 + 2 * s,
};
const runtime = new Map([
  ["ts", "js"],
  ["napi", "native"],
  ["hysnappy", "wasm"],
]);
const results = SWEEP_SIZES.flatMap((size) =>
  Object.entries(cost).map(([codec, f]) => result(codec, "compress", size, f(size))),
);

describe("sweepPayloads", () => {
  it("makes a block and a sidecar message of each size from the fixtures", () => {
    const payloads = sweepPayloads([64, 4 << 20]);
    expect(payloads.map((p) => [p.name, p.items.map((i) => i.length)])).toEqual([
      ["sweep-blocks-64", [64]],
      ["sweep-sidecars-64", [64]],
      ["sweep-blocks-4194304", [4 << 20]],
      ["sweep-sidecars-4194304", [4 << 20]],
    ]);
    // Prefixes of one stream: the small message is the start of the big one.
    expect(payloads[2]!.items[0]!.subarray(0, 64)).toEqual(payloads[0]!.items[0]);
    expect(payloads[0]!.items[0]).not.toEqual(payloads[1]!.items[0]);
  });
});

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

  it("renders the answers, the chart and its crossover marks", () => {
    const report = {
      schema: 1,
      command: "pnpm bench --sweep",
      mode: "full",
      timing: { forks: 9, clock: "wall" },
      durationMs: 1,
      environment: { date: "2026-11-30T12:00:00Z", commit: "abc", node: "v20", cpu: "x", cores: 2 },
      gateReference: "libsnappy",
      data: "d",
      sizes: SWEEP_SIZES,
      codecs: [...runtime].map(([id, r]) => ({ id, library: id, runtime: r })),
      points: sweepPoints(results),
      crossover: out,
      failures: [],
    } as unknown as SweepReport;
    const md = renderSweepMarkdown(report);
    expect(md).toMatch(
      /- compress, ts vs napi: ts is faster below ~\d+ B \[.+\] \(96 % pointwise\), napi above/,
    );
    const svg = renderSweepSvg(report);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toMatch(/<title>Snappy throughput by message size/);
    for (const id of runtime.keys()) expect(svg).toContain(`>${id}</text>`);
    expect(svg).toContain("solid rule, ts vs napi: equal at ~");
    expect(svg).toContain(">16 KiB</text>");
    expect(svg).toContain("MB/s (log scale)");
    expect(svg).toContain("message size");
  });
});

describe("spreadLabels", () => {
  it("keeps labels at least a gap apart and in order", () => {
    const ys = spreadLabels([100, 101, 102, 300], 12);
    const sorted = [...ys].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(12 - 1e-9);
    expect(ys[0]!).toBeLessThan(ys[1]!);
    expect(ys[3]).toBe(300);
  });
});

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { SnappyCodec } from "@snappykit/core";
import { encodeSszSnappy } from "@snappykit/p2p";
import { discoverAdapters, loadAdapters } from "@snappykit/workspace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TINY_TIMING, takeTurns } from "../__fixtures__/timing.js";
import { adapterTarget } from "../inputs/cases.js";
import { getOp } from "../inputs/ops.js";
import { prepareInputs } from "../inputs/prepare.js";
import { syntheticPayloads } from "../inputs/synthetic.js";
import type { PreparedPayload, RowInputs, Target, TargetSpec } from "../model/case.js";
import type { TimingOptions } from "../model/timing.js";
import { ChildWorker, ForkError, readInputs, writeInputs } from "./fork.js";
import { LocalWorker } from "./local.js";
import { INPUT_OFFSET, OUTPUT_OFFSET, PAGE } from "./placement.js";
import { CaseTimer, hasGc, MAX_BATCHES, peakExternal, settleHeap } from "./run.js";
import { runForks } from "./schedule.js";

const TINY = TINY_TIMING;

const napi = discoverAdapters().find((e) => e.id === "napi")!;
const spec = (over: Partial<TargetSpec> = {}): TargetSpec => ({
  codec: "napi",
  impl: "adapter",
  entry: napi.entry,
  ...over,
});

let napiTarget: Target;
let prepared: PreparedPayload[];
let rows: RowInputs[];
let dir: string;
beforeAll(async () => {
  const { loaded } = await loadAdapters([napi]);
  const reference = adapterTarget("napi", loaded[0]!.codec);
  napiTarget = reference;
  prepared = (await prepareInputs(reference, [reference], syntheticPayloads())).prepared;
  rows = prepared.flatMap((p) =>
    ["compress", "uncompress", "uncompress-async"].map((id) => {
      const op = getOp(id);
      return {
        payload: p.payload.name,
        op: id,
        outputBytes: op.outputBytes(p),
        items: op.inputs(p),
      };
    }),
  );
  dir = mkdtempSync(join(tmpdir(), "bench-test-"));
  writeInputs(dir, rows);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rowOf = (payload: string, op: string) =>
  rows.findIndex((r) => r.payload === payload && r.op === op);

describe("CaseTimer", () => {
  it("runs under --expose-gc in tests too", () => {
    expect(hasGc()).toBe(true);
  });

  it("sizes its batch within the output cap, samples in turns and measures allocation", async () => {
    const worker = await LocalWorker.start(spec(), rows, TINY);
    const row = rowOf("synthetic-block", "uncompress");
    const k = await worker.warm(row);
    expect(k * rows[row]!.outputBytes).toBeLessThanOrEqual(TINY.batchMaxBytes);
    const { turns, samples } = await takeTurns(() => worker.sample(row));
    // A case stops at its budget: enough batches, and timeMs of their time.
    expect(samples.length).toBeGreaterThanOrEqual(TINY.minSamples);
    expect(samples.every((s) => s > 0)).toBe(true);
    expect(samples.reduce((a, ns) => a + ns, 0) * k).toBeGreaterThanOrEqual(TINY.timeMs * 1e6);
    expect(turns).toBeGreaterThan(1);
    const alloc = await worker.allocation(row);
    // The decoded 96 KiB live in a Buffer backing store: the external figure must see it.
    expect(alloc.external).toBeGreaterThanOrEqual(96 * 1024);
    expect(alloc.external).toBeLessThan(2 * 96 * 1024);
  });

  it("takes one batch a turn with a zero slice, and no turn before warm-up or after the last", async () => {
    const counted: TimingOptions = { ...TINY, sliceMs: 0, timeMs: 0, minSamples: 4 };
    const worker = await LocalWorker.start(spec(), rows, counted);
    const row = rowOf("synthetic-small", "compress");
    await expect(worker.sample(row)).rejects.toThrow(/warm the case up first/);
    await worker.warm(row);
    for (let turn = 1; turn < 4; turn++) expect(await worker.sample(row)).toEqual({ done: false });
    const last = await worker.sample(row);
    expect(last.done && last.samples.length).toBe(4);
    await expect(worker.sample(row)).rejects.toThrow(/warm the case up first/);
  });

  it("stops a case at MAX_BATCHES batches when its time budget is never reached", async () => {
    // As with a clock too coarse to see a batch: the budget never fills, the cap ends it.
    const endless: TimingOptions = { ...TINY, timeMs: Number.POSITIVE_INFINITY, batchMs: 0 };
    const worker = await LocalWorker.start(spec(), rows, endless);
    const row = rowOf("synthetic-small", "compress");
    expect(await worker.warm(row)).toBe(1);
    const { samples } = await takeTurns(() => worker.sample(row));
    expect(samples).toHaveLength(MAX_BATCHES);
  });

  it("can time sync ops on process CPU time", async () => {
    const p = prepared.find((x) => x.payload.name === "synthetic-block")!;
    const { loaded } = await loadAdapters([napi]);
    const timer = new CaseTimer(
      {
        target: adapterTarget("napi", loaded[0]!.codec),
        op: getOp("compress"),
        inputs: p.payload.items,
        outputBytes: 1,
      },
      { ...TINY, clock: "cpu" },
    );
    await timer.warm();
    expect((await takeTurns(() => timer.sample())).samples.every((s) => s > 0)).toBe(true);
  });

  it("runs an into-op into one array of the case's own, sized for the largest item, placed", async () => {
    const seen = new Set<Uint8Array>();
    const read = new Set<number>();
    const into = {
      library: "into@1",
      compress: (x: Uint8Array) => x,
      uncompress: (x: Uint8Array) => x,
      maxCompressedLength: (n: number) => n + 1,
      compressInto(input: Uint8Array, output: Uint8Array) {
        seen.add(output);
        read.add(input.byteOffset % PAGE);
        output.set(input);
        return input.length;
      },
    };
    const timer = new CaseTimer(
      {
        target: { codec: "into", impl: "adapter", library: into.library, backend: into },
        op: getOp("compress-into"),
        inputs: [new Uint8Array(10), new Uint8Array(40)],
        outputBytes: 50,
      },
      TINY,
    );
    await timer.warm();
    expect((await takeTurns(() => timer.sample())).samples.every((s) => s > 0)).toBe(true);
    // Placed where nothing aliases modulo 4096 (placement.ts).
    expect([...seen].map((o) => [o.length, o.byteOffset % PAGE])).toEqual([[41, OUTPUT_OFFSET]]);
    expect([...read]).toEqual([INPUT_OFFSET]);
  });

  it("--slow-down spins inside each batch's timed region for that fraction of its time", async () => {
    // A codec whose every call takes at least 1 ms: with slowdown 1 a batch of k calls spins
    // at least another k ms before its clock stops, so no sample can be under 2 ms per op.
    const { loaded } = await loadAdapters([napi]);
    const real = loaded[0]!.codec;
    const slow = Object.assign(Object.create(real) as typeof real, {
      compress(x: Uint8Array) {
        const until = performance.now() + 1;
        while (performance.now() < until);
        return real.compress(x);
      },
    });
    const timer = new CaseTimer(
      {
        target: adapterTarget("slow", slow),
        op: getOp("compress"),
        inputs: [new Uint8Array(64)],
        outputBytes: 1,
        slowdown: 1,
      },
      TINY,
    );
    await timer.warm();
    const { samples } = await takeTurns(() => timer.sample());
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(2e6);
  });
});

describe("peakExternal", () => {
  const one = [new Uint8Array(16)];

  it("sees what an op holds between two pieces and drops before it returns", async () => {
    let scratch: Uint8Array | undefined;
    const holding = await peakExternal(async (item, sample) => {
      scratch = new Uint8Array(16 << 20).fill(1);
      sample();
      scratch = undefined;
      return item;
    }, one);
    expect(scratch).toBeUndefined();
    expect(holding).toBeGreaterThanOrEqual(16 << 20);
    const idle = await peakExternal(async (item, sample) => {
      sample();
      return item;
    }, one);
    expect(idle).toBeLessThan(1 << 20);
  });

  it("is a framed read's allocation figure, at least the decoded response held", async () => {
    const ssz = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 2654435761) >>> 27);
    const inputs = [encodeSszSnappy(napiTarget.backend as SnappyCodec, ssz)];
    const timer = (op: string) =>
      new CaseTimer({ target: napiTarget, op: getOp(op), inputs, outputBytes: ssz.length }, TINY);
    const { peak } = await timer("reqresp-read:snappykit").allocation();
    expect(peak).toBeGreaterThanOrEqual(ssz.length);
    expect(peak).toBeLessThan(4 * ssz.length);
    expect((await timer("ssz_snappy-decode").allocation()).peak).toBeUndefined();
  });
});

describe("fork inputs", () => {
  it("reach the child byte for byte, each item in its own buffer", () => {
    const back = readInputs(dir);
    expect(back.map((r) => [r.payload, r.op, r.outputBytes])).toEqual(
      rows.map((r) => [r.payload, r.op, r.outputBytes]),
    );
    for (let i = 0; i < rows.length; i++) {
      expect(back[i]!.items.map((x) => Buffer.from(x).toString("hex"))).toEqual(
        rows[i]!.items.map((x) => Buffer.from(x).toString("hex")),
      );
      for (const item of back[i]!.items) expect(item.byteOffset).toBe(0);
    }
  });
});

describe("ChildWorker", () => {
  it("times a case in its own process", async () => {
    const w = await ChildWorker.start(spec(), dir, TINY, 30_000);
    try {
      const row = rowOf("synthetic-small", "uncompress-async");
      expect(await w.warm(row)).toBeGreaterThanOrEqual(1);
      const { samples } = await takeTurns(() => w.sample(row));
      expect(samples.length).toBeGreaterThanOrEqual(TINY.minSamples);
    } finally {
      await w.close();
    }
  });

  it("reports a target that cannot load", async () => {
    await expect(
      ChildWorker.start(spec({ entry: join(dir, "missing.js") }), dir, TINY, 30_000),
    ).rejects.toThrow(/cannot load napi/);
  });

  it("kills a child that does not answer in time", async () => {
    // Every call slowed 10,000-fold: one warm-up batch outlasts the timeout.
    const w = await ChildWorker.start(spec({ slowdown: 10_000 }), dir, TINY, 300);
    await expect(w.warm(rowOf("synthetic-block", "compress"))).rejects.toThrow(ForkError);
    await expect(w.sample(0)).rejects.toThrow(/child killed by SIGKILL/);
  });
});

describe("runForks", () => {
  it("times every case in every fork, interleaved, and reports lost targets", async () => {
    const row = rowOf("synthetic-small", "compress");
    const broken = spec({ codec: "broken", entry: join(dir, "missing.js") });
    const order: string[] = [];
    // One batch per turn and a count, not a time, to reach: the turn order does not depend
    // on how fast the machine is.
    const counted: TimingOptions = { ...TINY, sliceMs: 0, timeMs: 0, minSamples: 4 };
    const { measurements, failures } = await runForks(
      [
        { spec: spec(), row },
        { spec: spec({ codec: "napi-again" }), row },
        { spec: broken, row },
      ],
      rows.map((r) => ({ label: `{codec}/${r.payload}/${r.op}` })),
      2,
      async (s) => {
        if (s.codec === "broken") throw new Error("cannot load broken");
        const w = await LocalWorker.start({ ...s, codec: "napi" }, rows, counted);
        return {
          spec: s,
          warm: (r) => w.warm(r),
          sample: (r) => {
            order.push(s.codec);
            return w.sample(r);
          },
          allocation: (r) => w.allocation(r),
          close: () => w.close(),
        };
      },
    );
    expect(measurements.map((m) => m.spec.codec)).toEqual(["napi", "napi-again", "broken"]);
    for (const m of measurements.slice(0, 2)) {
      expect(m.forkMedians.every((x) => x > 0)).toBe(true);
      expect(m.samples).toHaveLength(2 * counted.minSamples);
    }
    expect(measurements[2]!.forkMedians.every(Number.isNaN)).toBe(true);
    expect(failures.map((f) => [f.codec, f.fork])).toEqual([
      ["broken", 0],
      ["broken", 1],
    ]);
    // Turns alternate between the two codecs of the row, rotating who goes first.
    expect(order.slice(0, 8)).toEqual([
      "napi",
      "napi-again",
      "napi-again",
      "napi",
      "napi",
      "napi-again",
      "napi-again",
      "napi",
    ]);
  });

  it("adds forks for the targets of rows still named wide, each replaying all its rows", async () => {
    const small = rowOf("synthetic-small", "compress");
    const large = rowOf("synthetic-small", "uncompress");
    const counted: TimingOptions = { ...TINY, sliceMs: 0, timeMs: 0, minSamples: 2 };
    const started: string[] = [];
    const asked: number[] = [];
    const order: string[] = [];
    // "napi" runs only the small row; "napi-again" both, and its large row stays wide until
    // it has 4 forks.
    const { measurements } = await runForks(
      [
        { spec: spec(), row: small },
        { spec: spec({ codec: "napi-again" }), row: small },
        { spec: spec({ codec: "napi-again" }), row: large },
      ],
      rows.map((r) => ({ label: `{codec}/${r.payload}/${r.op}` })),
      2,
      async (s, fork) => {
        started.push(`${s.codec}#${fork}`);
        const w = await LocalWorker.start({ ...s, codec: "napi" }, rows, counted);
        return {
          spec: s,
          warm: (r) => {
            if (fork >= 2) order.push(`${s.codec}#${fork}/${r === small ? "small" : "large"}`);
            return w.warm(r);
          },
          sample: (r) => w.sample(r),
          allocation: (r) => w.allocation(r),
          close: () => w.close(),
        };
      },
      undefined,
      {
        extraForks: 5,
        deadline: Number.POSITIVE_INFINITY,
        wideRows: (ms) => {
          const m = ms.find((x) => x.row === large)!;
          asked.push(m.forkMedians.filter(Number.isFinite).length);
          return asked.at(-1)! < 4 ? [large] : [];
        },
      },
    );
    const finite = (codec: string, row: number) =>
      measurements
        .find((m) => m.spec.codec === codec && m.row === row)!
        .forkMedians.filter(Number.isFinite).length;
    expect(finite("napi", small)).toBe(2);
    expect(finite("napi-again", small)).toBe(4);
    expect(finite("napi-again", large)).toBe(4);
    expect(asked).toEqual([2, 3, 4]);
    expect(started.filter((s) => s.startsWith("napi#"))).toEqual(["napi#0", "napi#1"]);
    // The extra forks replay the target's rows in the base forks' order.
    expect(order).toEqual([
      "napi-again#2/small",
      "napi-again#2/large",
      "napi-again#3/small",
      "napi-again#3/large",
    ]);
    // Fork indices stay aligned across cases: one slot per fork run.
    expect(measurements.every((m) => m.forkMedians.length === 4)).toBe(true);
  });

  it("starts no extra fork after the deadline", async () => {
    const row = rowOf("synthetic-small", "compress");
    const counted: TimingOptions = { ...TINY, sliceMs: 0, timeMs: 0, minSamples: 2 };
    const { measurements } = await runForks(
      [{ spec: spec(), row }],
      rows.map((r) => ({ label: `{codec}/${r.payload}/${r.op}` })),
      2,
      (s) => LocalWorker.start(s, rows, counted),
      undefined,
      { extraForks: 5, deadline: 0, wideRows: () => [row] },
    );
    expect(measurements[0]!.forkMedians).toHaveLength(2);
  });
});

describe("settleHeap", () => {
  // Run in a fresh process, the state a fork starts in, from the built module (forks run dist).
  const settleInFreshProcess = (): { bytes: number; freed: boolean; gcs: number } => {
    const run = fileURLToPath(new URL("../../dist/measure/run.js", import.meta.url));
    const script = `
      import { PerformanceObserver } from "node:perf_hooks";
      const { settleHeap } = await import(${JSON.stringify(pathToFileURL(run).href)});
      let gcs = 0;
      const seen = new PerformanceObserver((list) => { gcs += list.getEntries().length; });
      seen.observe({ entryTypes: ["gc"] });
      const settled = settleHeap();
      await new Promise((r) => setTimeout(r, 50));
      console.log(JSON.stringify({ ...settled, gcs }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    return JSON.parse(out);
  };

  it("allocates until a GC has freed what it dropped, in a fresh process, within its cap", () => {
    const s = settleInFreshProcess();
    expect(s.freed).toBe(true);
    expect(s.gcs).toBeGreaterThan(0);
    // A fresh heap holds its first tens of MiB of dropped buffers: the GC it waits for
    // comes only after them, and the cap is 256 MiB.
    expect(s.bytes).toBeGreaterThanOrEqual(16 << 20);
    expect(s.bytes).toBeLessThanOrEqual(256 << 20);
  });

  it("returns at once where the heap statistics do not count external memory", () => {
    const v8 = { getHeapStatistics: () => ({ external_memory: 0 }) };
    expect(settleHeap(v8.getHeapStatistics)).toEqual({ bytes: 1 << 20, freed: false });
  });
});

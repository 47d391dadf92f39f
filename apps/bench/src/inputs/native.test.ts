import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { locate } from "@snappykit/libsnappy-build";
import { discoverAdapters, loadAdapters } from "@snappykit/workspace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TINY_TIMING, takeTurns } from "../__fixtures__/timing.js";
import { ChildWorker, nativeCommand, writeInputs } from "../measure/fork.js";
import { INPUT_OFFSET, OUTPUT_OFFSET } from "../measure/placement.js";
import type { RowInputs, TargetSpec } from "../model/case.js";
import type { TimingOptions } from "../model/timing.js";
import { adapterTarget, buildCases } from "./cases.js";
import { codecTarget } from "./catalog.js";
import { loadNative, NATIVE_ID, type NativeLoad } from "./native.js";
import { getOp, OPS } from "./ops.js";
import { prepareInputs } from "./prepare.js";
import { syntheticPayloads } from "./synthetic.js";

const TINY: TimingOptions = { ...TINY_TIMING, forks: 1 };

let native: Extract<NativeLoad, { ok: true }>;
beforeAll(() => {
  const loaded = loadNative();
  if (!loaded.ok) throw new Error(`the tests need a C++ compiler: ${loaded.reason}`);
  native = loaded;
}, 120_000);

describe("cpp (libsnappy without bindings)", () => {
  it("says why it is unavailable without a compiler, and the rest loads", () => {
    const missing = loadNative({ CXX: "/nonexistent/c++" });
    expect(missing).toMatchObject({ ok: false, id: NATIVE_ID });
    expect(!missing.ok && missing.reason).toMatch(/no C\+\+ compiler \(\/nonexistent\/c\+\+\)/);
  });

  it("is marked native, no JavaScript, and reuses its cached build", () => {
    expect(native.target.codec.runtime).toBe("native");
    // The version, source and flags of tools/libsnappy's build, as every report lists them.
    const lib = locate();
    expect(lib.ok).toBe(true);
    if (lib.ok) {
      expect(native.target.codec.library).toContain(`libsnappy ${lib.version} (`);
      expect(native.target.codec.library).toContain(lib.flags.cxxFlags);
      expect(native.target.codec.library).toContain("C++ without bindings, no JavaScript");
    }
    const again = loadNative();
    expect(again.ok && again.program).toBe(native.program);
  });

  it("passes the gate against libsnappy's binding, both ways", async () => {
    const libsnappy = discoverAdapters().find((e) => e.id === "libsnappy")!;
    const { loaded } = await loadAdapters([libsnappy]);
    const reference = adapterTarget("libsnappy", loaded[0]!.codec);
    const payloads = syntheticPayloads();
    const gate = await prepareInputs(reference, [codecTarget(native.target)], payloads);
    expect(gate.checks).toBe(2 * payloads.reduce((n, p) => n + p.items.length, 0));
    // libsnappy 1.2 encodes differently from the binding's 1.1.7; each decodes the other's.
    for (const item of payloads.flatMap((p) => p.items)) {
      expect(reference.backend.uncompress(native.target.codec.compress(item))).toEqual(item);
    }
  });

  it("rejects a corrupt stream as libsnappy does", () => {
    expect(() => native.target.codec.uncompress(Uint8Array.of(5, 0xff, 1, 2))).toThrow(
      expect.objectContaining({ code: "CORRUPT_INPUT" }),
    );
  });

  it("is offered exactly the ops its program times", () => {
    const target = codecTarget(native.target);
    const cases = buildCases({
      targets: [target],
      rawTargets: [],
      payloads: syntheticPayloads().slice(0, 1),
      ops: OPS,
      overheadPayloads: [],
      explicitOps: true,
    });
    expect(cases.map((c) => c.op.id)).toEqual([
      "compress",
      "uncompress",
      "compress-into",
      "uncompress-into",
    ]);
  });

  describe("its fork", () => {
    let dir: string;
    let rows: RowInputs[];
    beforeAll(async () => {
      const payloads = syntheticPayloads();
      const napi = discoverAdapters().find((e) => e.id === "napi")!;
      const { loaded } = await loadAdapters([napi]);
      const reference = adapterTarget("napi", loaded[0]!.codec);
      const { prepared } = await prepareInputs(reference, [reference], payloads);
      // A framed op first: the program keeps its row number and refuses it.
      rows = [
        "ssz_snappy-encode",
        "compress",
        "uncompress",
        "compress-into",
        "uncompress-into",
      ].map((id) => ({
        payload: prepared[0]!.payload.name,
        op: id,
        outputBytes: getOp(id).outputBytes(prepared[0]!),
        items: getOp(id).inputs(prepared[0]!),
      }));
      dir = mkdtempSync(join(tmpdir(), "bench-native-"));
      writeInputs(dir, rows);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** The program's fork, timing with `timing`. */
    const startFork = (timing: TimingOptions) => {
      const spec: TargetSpec = {
        codec: NATIVE_ID,
        impl: "adapter",
        entry: native.program,
        native: true,
      };
      return ChildWorker.start(spec, dir, timing, 30_000, nativeCommand(spec, dir, timing));
    };

    it("answers warm, sample and allocation like a Node fork, row by row", async () => {
      const worker = await startFork(TINY);
      try {
        await expect(worker.warm(0)).rejects.toThrow(/cpp cannot run row 0/);
        for (const row of [1, 2, 3, 4]) {
          const k = await worker.warm(row);
          expect(k).toBeGreaterThanOrEqual(1);
          const { samples } = await takeTurns(() => worker.sample(row));
          expect(samples.length).toBeGreaterThanOrEqual(TINY.minSamples);
          for (const ns of samples) expect(ns).toBeGreaterThan(0);
        }
        // The owned-result calls allocate their output; the into-calls' decoder does not.
        const owned = await worker.allocation(2);
        expect(owned.heap).toBe(0);
        expect(owned.external).toBeGreaterThanOrEqual(rows[2]!.items.length);
        expect((await worker.allocation(4)).external).toBe(0);
      } finally {
        await worker.close();
      }
    });

    it("puts every item at +64 and every output at +2112 of its pages: never 4K-aliased", () => {
      const run = spawnSync(native.program, ["layout", dir], { encoding: "utf8" });
      expect(run.status).toBe(0);
      const lines = run.stdout.trim().split("\n");
      expect(lines).toHaveLength(rows.length);
      for (const [i, line] of lines.entries()) {
        const [row, output, ...items] = line.split(" ").map(Number);
        expect(row).toBe(i);
        if (i === 0) continue; // the framed op: no items
        expect(output).toBe(OUTPUT_OFFSET);
        expect(items).toEqual(rows[i]!.items.map(() => INPUT_OFFSET));
      }
    });

    it("stops a row as mitata does: one batch a turn with a zero slice, minSamples in all", async () => {
      const worker = await startFork({ ...TINY, sliceMs: 0, timeMs: 0, minSamples: 4 });
      try {
        await worker.warm(1);
        const { turns, samples } = await takeTurns(() => worker.sample(1));
        expect([turns, samples.length]).toEqual([4, 4]);
      } finally {
        await worker.close();
      }
    });
  });
});

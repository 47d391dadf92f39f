import type { SnappyCodec } from "@snappykit/core";
import { encodeSszSnappy } from "@snappykit/p2p";
import { discoverAdapters, loadAdapters } from "@snappykit/workspace";
import { beforeAll, describe, expect, it } from "vitest";
import { takeTurns } from "../__fixtures__/timing.js";
import { CaseTimer } from "../measure/run.js";
import type { OpCall, Target } from "../model/case.js";
import { QUICK_TIMING } from "../model/timing.js";
import { adapterTarget, buildCases } from "./cases.js";
import { getOp } from "./ops.js";
import { makePayload } from "./payloads.js";

const run = (call: OpCall | undefined, input: Uint8Array) =>
  (call!.receiver as Record<string, (x: Uint8Array) => Uint8Array>)[call!.method]!(input);

let ts: Target;
let napi: Target;
beforeAll(async () => {
  const entries = discoverAdapters().filter((e) => e.id === "ts" || e.id === "napi");
  const { loaded } = await loadAdapters(entries);
  const codec = (id: string) => loaded.find((a) => a.id === id)!;
  ts = adapterTarget("ts", codec("ts").codec);
  napi = adapterTarget("napi", codec("napi").codec);
});

describe("client-pattern and owned-result ops", () => {
  const message = new TextEncoder().encode("gossip ".repeat(40));

  it("decode a gossip message as Lodestar 1.44 does: memory of its own, the right bytes", () => {
    const compressed = ts.backend.compress(message);
    const call = getOp("gossip-inbound").call(ts);
    const first = run(call, compressed);
    const second = run(call, compressed);
    expect(Uint8Array.from(first)).toEqual(message);
    expect(first).toBeInstanceOf(Buffer);
    expect(second).not.toBe(first);
    // Buffer.alloc never pools: each result owns its buffer.
    expect(first.byteOffset).toBe(0);
    expect(first.buffer.byteLength).toBe(message.length);
  });

  it("decode a gossip message through @snappykit/p2p's transform, the right bytes", () => {
    const call = getOp("gossip-transform").call(ts);
    expect(Uint8Array.from(run(call, ts.backend.compress(message)))).toEqual(message);
  });

  it("refuse a message declaring more than MAX_PAYLOAD_SIZE before allocating", () => {
    for (const id of ["gossip-inbound", "gossip-transform"]) {
      const call = getOp(id).call(ts);
      // A preamble declaring 2^28 bytes: over the 10 MiB bound.
      expect(() => run(call, Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x01, 0))).toThrow(
        expect.objectContaining({ code: "LENGTH_LIMIT" }),
      );
    }
  });

  it("allocate each item's decoded size and nothing else", () => {
    const plain = run(getOp("alloc-uint8array").call(ts), message);
    expect(plain.length).toBe(message.length);
    expect(plain.every((b) => b === 0)).toBe(true);
    expect(run(getOp("alloc-buffer").call(ts), message)).toBeInstanceOf(Buffer);
  });

  it("read a req/resp response off a stream of small or large chunks, byte for byte", async () => {
    const block = new Uint8Array(200_000).map((_, i) => (i * 7) % 251);
    const framed = encodeSszSnappy(ts.backend as SnappyCodec, block);
    for (const id of ["ssz_snappy-read-7b", "ssz_snappy-read-64k"]) {
      const call = getOp(id).call(ts, [framed]);
      const read = await (call!.receiver as { run(x: Uint8Array): Promise<Uint8Array> }).run(
        framed,
      );
      expect(read).toEqual(block);
    }
    expect(getOp("ssz_snappy-read-7b").defaultFor?.(makePayload("r", "", "reqresp", [block]))).toBe(
      false,
    );
  });

  it("allocate for real inside a timed loop: one op holds the item's size in memory", async () => {
    const timing = { ...QUICK_TIMING, warmupMs: 5, timeMs: 5, sliceMs: 1, batchMs: 0.2 };
    const item = new Uint8Array(64 << 10);
    const timer = new CaseTimer(
      { target: ts, op: getOp("alloc-uint8array"), inputs: [item], outputBytes: item.length },
      timing,
    );
    await timer.warm();
    await takeTurns(() => timer.sample());
    expect((await timer.allocation()).external).toBeGreaterThanOrEqual(item.length);
  });

  it("are offered to adapters with uncompressInto, on gossip payloads by default", () => {
    for (const id of ["gossip-inbound", "alloc-uint8array", "alloc-buffer"]) {
      expect(getOp(id).call(napi)).toBeUndefined();
      expect(getOp(id).call({ ...ts, impl: "raw" })).toBeUndefined();
    }
    const gossip = makePayload("g", "", "gossip", [message]);
    const response = makePayload("r", "", "reqresp", [message]);
    const ops = ["gossip-inbound", "alloc-uint8array"].map(getOp);
    const cases = buildCases({
      targets: [ts, napi],
      rawTargets: [],
      payloads: [gossip, response],
      ops,
      overheadPayloads: [],
    });
    expect(cases.map((c) => `${c.target.codec}/${c.payload.name}/${c.op.id}`)).toEqual([
      "ts/g/gossip-inbound",
      "ts/g/alloc-uint8array",
    ]);
  });
});

describe("framed req/resp rows", () => {
  it("run a pattern over every req/resp codec, Lodestar's only where uncompressInto is", () => {
    expect(napi.backend.uncompressInto).toBeUndefined();
    const runs = (id: string, target: Target) =>
      (["encode", "read"] as const).map(
        (k) => getOp(`reqresp-${k}:${id}`).call(target, []) !== undefined,
      );
    expect(runs("snappykit", napi)).toEqual([true, true]);
    expect(runs("snappykit", ts)).toEqual([true, true]);
    expect(runs("lodestar", napi)).toEqual([false, false]);
    expect(runs("lodestar", ts)).toEqual([true, true]);
    expect(runs("snappy-frames", napi)).toEqual([true, true]);
    expect(runs("snappy-frames", ts)).toEqual([false, false]);
  });
});

import type { SnappyCodec } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { caseKey } from "../model/case.js";
import { adapterTarget, buildCases, pickOverheadPayloads, rawTarget, supports } from "./cases.js";
import { getOp, OPS } from "./ops.js";
import { makePayload } from "./payloads.js";

// Only the shape matters here: cases are built, never run.
const identity = (x: Uint8Array) => x;
const syncCodec = {
  compress: identity,
  uncompress: identity,
  library: "s@1",
} as unknown as SnappyCodec;
const asyncCodec = {
  ...syncCodec,
  library: "a@1",
  compressAsync: async (x: Uint8Array) => x,
  uncompressAsync: async (x: Uint8Array) => x,
} as unknown as SnappyCodec;

const small = makePayload("small", "", "gossip", [new Uint8Array(100)]);
const large = makePayload("large", "", "gossip", [new Uint8Array(100_000)]);
const response = makePayload("response", "", "reqresp", [
  new Uint8Array(1000),
  new Uint8Array(1000),
]);
describe("cases", () => {
  const a = adapterTarget("a", asyncCodec);
  const s = adapterTarget("s", syncCodec);
  const v = adapterTarget("a-variant", asyncCodec, true);

  it("offers async ops only to codecs with a thread-pool API, and not to variants", () => {
    expect(supports(getOp("compress-async"), a)).toBe(true);
    expect(supports(getOp("compress-async"), s)).toBe(false);
    expect(supports(getOp("compress-async"), v)).toBe(false);
    expect(supports(getOp("compress"), v)).toBe(true);
  });

  it("offers into ops to codecs with into-calls, sized for the largest item", () => {
    const into = adapterTarget("i", {
      ...syncCodec,
      compressInto: () => 0,
      uncompressInto: () => 0,
      maxCompressedLength: (n: number) => n + 7,
    } as unknown as SnappyCodec);
    expect(supports(getOp("compress-into"), s)).toBe(false);
    const items = [new Uint8Array(10), new Uint8Array(300)];
    expect(getOp("compress-into").call(into, items)).toMatchObject({
      method: "compressInto",
      into: 307,
    });
    // Preambles declaring 5 and 300 (0xac 0x02) bytes: the array holds the larger.
    const streams = [Uint8Array.of(5, 0), Uint8Array.of(0xac, 0x02, 0)];
    expect(getOp("uncompress-into").call(into, streams)).toMatchObject({ into: 300 });
  });

  it("offers framed ops to adapters only", () => {
    expect(supports(getOp("ssz_snappy-encode"), s)).toBe(true);
    expect(supports(getOp("ssz_snappy-encode"), rawTarget("s", syncCodec))).toBe(false);
  });

  it("times raw libraries only on the overhead payloads, right after their adapter", () => {
    const cases = buildCases({
      targets: [a, s],
      rawTargets: [rawTarget("s", syncCodec)],
      payloads: [small, large, response],
      ops: OPS,
      overheadPayloads: ["small"],
    });
    const keys = cases.map((c) =>
      caseKey({
        codec: c.target.codec,
        impl: c.target.impl,
        payload: c.payload.name,
        op: c.op.id,
      }),
    );
    expect(keys.slice(0, 4)).toEqual([
      "a/small/compress",
      "s/small/compress",
      "s:raw/small/compress",
      "a/small/uncompress",
    ]);
    expect(keys.filter((k) => k.includes(":raw"))).toEqual([
      "s:raw/small/compress",
      "s:raw/small/uncompress",
    ]);
    // Framed ops by default only on req/resp payloads.
    expect(
      keys.filter((k) => k.includes("ssz_snappy")).every((k) => k.includes("/response/")),
    ).toBe(true);
    expect(keys).toContain("s/response/ssz_snappy-decode");
  });

  it("runs framed ops on every payload when --op names them", () => {
    const cases = buildCases({
      targets: [s],
      rawTargets: [],
      payloads: [small],
      ops: [getOp("ssz_snappy-encode")],
      overheadPayloads: [],
      explicitOps: true,
    });
    expect(cases).toHaveLength(1);
  });

  it("picks the payloads with the smallest and largest items for overhead", () => {
    expect(pickOverheadPayloads([large, response, small])).toEqual(["small", "large"]);
    expect(pickOverheadPayloads([small])).toEqual(["small"]);
    expect(pickOverheadPayloads([])).toEqual([]);
  });

  it("rejects an unknown op listing the valid ones", () => {
    expect(() => getOp("zip")).toThrow(/unknown op "zip"; valid: compress, uncompress/);
  });
});

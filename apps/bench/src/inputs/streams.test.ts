import { describe, expect, it } from "vitest";
import { GOSSIP_MIX } from "../model/soak.js";
import { loadPayloadSource, makePayload } from "./payloads.js";
import { gossipOrder, sweepData, sweepPayloads, sweepStreams } from "./streams.js";

describe("sweepPayloads", () => {
  it("makes a block and a sidecar message of each size from the fixtures", () => {
    const payloads = sweepPayloads(sweepStreams(loadPayloadSource()), [64, 4 << 20]);
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

describe("sweepStreams with --data", () => {
  it("cuts every size from the user's bytes alone, repeated past their end", () => {
    const user = makePayload("capture", "your file", "user", [
      Uint8Array.of(1, 2, 3),
      Uint8Array.of(4, 5),
    ]);
    const streams = sweepStreams({ ...loadPayloadSource(), user: [user] });
    expect(streams.map((s) => [s.name, s.sources])).toEqual([["data", ["capture"]]]);
    const payloads = sweepPayloads(streams, [4, 12]);
    expect(payloads.map((p) => p.name)).toEqual(["sweep-data-4", "sweep-data-12"]);
    expect([...payloads[1]!.items[0]!]).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2]);
    expect(sweepData(streams)).toMatch(/first `size` bytes of capture \(--data/);
  });
});

describe("gossipOrder", () => {
  it("spreads each kind evenly and keeps the mix's counts", () => {
    const order = gossipOrder();
    expect(order).toHaveLength(GOSSIP_MIX.reduce((n, [, k]) => n + k, 0));
    for (const [name, k] of GOSSIP_MIX) expect(order.filter((n) => n === name)).toHaveLength(k);
    expect(gossipOrder()).toEqual(order);
    // No two blocks or columns next to each other; attestations never more than 4 apart.
    const at = order.flatMap((n, i) => (n === "single-attestation" ? [i] : []));
    expect(Math.max(...at.slice(1).map((x, i) => x - at[i]!))).toBeLessThanOrEqual(4);
  });
});

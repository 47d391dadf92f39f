import { createCodec } from "@snappykit/auto";
import { encodeUncompressedLength, SnappyError } from "@snappykit/core";
import { getGolden, getPayload } from "@snappykit/fixtures";
import { describe, expect, it } from "vitest";
import {
  computeMessageId,
  createGossipTransform,
  type GossipMetrics,
  GossipTransform,
  gossipMessageId,
} from "./index.js";

const codec = await createCodec();
const TOPIC = "/eth2/4a26c58b/sync_committee_0/ssz_snappy";
const ssz = getPayload("sync-committee-message").items[0]!;
const wire = getGolden("sync-committee-message")[0]!;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function recorder() {
  const events: string[] = [];
  const metrics: GossipMetrics = {
    onInbound: (topic, wireBytes, sszBytes) => events.push(`in ${topic} ${wireBytes} ${sszBytes}`),
    onOutbound: (topic, sszBytes, wireBytes) =>
      events.push(`out ${topic} ${sszBytes} ${wireBytes}`),
    onReject: (topic, reason) => events.push(`reject ${topic} ${reason}`),
  };
  return { events, metrics };
}

const reasonOf = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(SnappyError);
    return (error as SnappyError).reason;
  }
  throw new Error("did not throw");
};

describe("message id", () => {
  // Fixed vectors from Python's hashlib over a hand-assembled preimage (domain, uint64 LE
  // topic length, topic, data), not from this package.
  it("matches independently computed vectors, valid and invalid Snappy", () => {
    expect(hex(gossipMessageId(TOPIC, ssz))).toBe("f4ef286ac28a040241e11c454adb16cbaedb6ed7");
    expect(hex(computeMessageId(codec, TOPIC, wire))).toBe(
      "f4ef286ac28a040241e11c454adb16cbaedb6ed7",
    );
    expect(hex(computeMessageId(codec, TOPIC, wire.subarray(0, 40)))).toBe(
      "23cb8049647039091d48195238c11a54a9837d12",
    );
  });

  it("is 20 bytes and depends on the topic", () => {
    const a = gossipMessageId(TOPIC, ssz);
    expect(a.length).toBe(20);
    expect(a.byteOffset).toBe(0);
    expect(hex(gossipMessageId(`${TOPIC}x`, ssz))).not.toBe(hex(a));
  });

  it("treats a message over maxLength as invalid Snappy", () => {
    expect(hex(computeMessageId(codec, TOPIC, wire, 143))).not.toBe(
      hex(computeMessageId(codec, TOPIC, wire)),
    );
  });
});

describe("GossipTransform", () => {
  const bounds = () => ({ minSize: 144, maxSize: 144 });

  it("round-trips every gossip fixture and reports metrics", async () => {
    const { events, metrics } = recorder();
    const transform = await createGossipTransform({
      bounds: () => ({ minSize: 0, maxSize: 1 << 30 }),
      metrics,
    });
    for (const name of [
      "single-attestation",
      "attestation",
      "sync-committee-message",
      "beacon-block",
      "blob-sidecar",
      "data-column-sidecar",
    ]) {
      const item = getPayload(name).items[0]!;
      const out = transform.outboundTransform(name, item);
      expect(out).toEqual(codec.compress(item));
      expect(transform.inboundTransform(name, out)).toEqual(item);
      expect(transform.inboundTransform(name, getGolden(name)[0]!)).toEqual(item);
    }
    expect(events.filter((e) => e.startsWith("in ")).length).toBe(12);
    expect(events).toContain(`out sync-committee-message 144 ${codec.compress(ssz).length}`);
    expect(events).toContain("in sync-committee-message 146 144");
  });

  it("gives each small result its own bytes in a shared slab, large ones their own buffer", () => {
    const transform = new GossipTransform({ codec, bounds });
    const a = transform.inboundTransform(TOPIC, wire);
    const b = transform.inboundTransform(TOPIC, wire);
    expect(a.buffer).toBe(b.buffer);
    expect(b.byteOffset).toBeGreaterThanOrEqual(a.byteOffset + a.length);
    b.fill(0);
    expect(a).toEqual(ssz);
    expect(Object.getPrototypeOf(a)).toBe(Uint8Array.prototype);
    const block = getPayload("beacon-block").items[0]!;
    const big = new GossipTransform({ codec, bounds: () => ({ minSize: 0, maxSize: 1 << 24 }) });
    const out = big.inboundTransform("b", codec.compress(block));
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(block.length);
    // Slab transferred away by a caller: the next message gets a new one.
    structuredClone(a.buffer, { transfer: [a.buffer as ArrayBuffer] });
    expect(transform.inboundTransform(TOPIC, wire)).toEqual(ssz);
  });

  it("checks the declared length against the bounds before allocating", () => {
    const { events, metrics } = recorder();
    const transform = new GossipTransform({ codec, bounds, metrics });
    const huge = Uint8Array.of(...encodeUncompressedLength(0xffff_fff0), 0);
    let error: SnappyError | undefined;
    try {
      transform.inboundTransform(TOPIC, huge);
    } catch (e) {
      error = e as SnappyError;
    }
    expect(error?.reason).toBe("length-over-limit");
    expect(error?.code).toBe("LENGTH_LIMIT");
    expect(error?.declared).toBe(0xffff_fff0);
    expect(error?.limit).toBe(144);
    const small = codec.compress(ssz.subarray(0, 100));
    expect(reasonOf(() => transform.inboundTransform(TOPIC, small))).toBe("length-under-minimum");
    // The preamble intact, the body cut short: the literal runs past the input.
    const cut = wire.subarray(0, wire.length - 10);
    expect(reasonOf(() => transform.inboundTransform(TOPIC, cut))).toMatch(
      /^(literal-past-input|truncated)$/,
    );
    expect(reasonOf(() => transform.inboundTransform(TOPIC, new Uint8Array(0)))).toBe("truncated");
    expect(events).toEqual([
      `reject ${TOPIC} length-over-limit`,
      `reject ${TOPIC} length-under-minimum`,
      expect.stringMatching(/^reject /),
      `reject ${TOPIC} truncated`,
    ]);
  });

  it("caps every topic's maxSize by maxPayloadSize", () => {
    const transform = new GossipTransform({
      codec,
      bounds: () => ({ minSize: 0, maxSize: 1 << 30 }),
      maxPayloadSize: 100,
    });
    expect(reasonOf(() => transform.inboundTransform(TOPIC, wire))).toBe("length-over-limit");
    expect(reasonOf(() => transform.outboundTransform(TOPIC, ssz))).toBe("length-over-limit");
  });

  it("refuses to publish what peers would refuse", () => {
    const transform = new GossipTransform({ codec, bounds });
    expect(reasonOf(() => transform.outboundTransform(TOPIC, new Uint8Array(145)))).toBe(
      "length-over-limit",
    );
    expect(reasonOf(() => transform.outboundTransform(TOPIC, new Uint8Array(143)))).toBe(
      "length-under-minimum",
    );
  });

  it("accepts an SSZ type's shape as bounds and refuses a topic without bounds", () => {
    class FakeSszType {
      readonly fixedSize = 144;
      get minSize() {
        return 144;
      }
      get maxSize() {
        return 144;
      }
    }
    const type = new FakeSszType();
    const transform = new GossipTransform({
      codec,
      bounds: (topic) => (topic === TOPIC ? type : undefined),
    });
    expect(transform.inboundTransform(TOPIC, wire)).toEqual(ssz);
    expect(reasonOf(() => transform.inboundTransform("/other", wire))).toBe("bad-options");
  });

  it("reports a bounds callback that throws as the application's error, with it as cause", () => {
    const bug = new Error("no fork for this topic");
    const transform = new GossipTransform({
      codec,
      bounds: () => {
        throw bug;
      },
    });
    for (const call of [
      () => transform.inboundTransform(TOPIC, wire),
      () => transform.outboundTransform(TOPIC, ssz),
    ]) {
      expect(reasonOf(call)).toBe("bad-options");
      const chain: unknown[] = [];
      try {
        call();
      } catch (error) {
        for (let e = error; e instanceof Error; e = e.cause) chain.push(e);
      }
      expect(chain).toContain(bug);
    }
  });

  it("refuses bad options and non-bytes", () => {
    expect(() => new GossipTransform({ codec, bounds, maxPayloadSize: -1 })).toThrow(SnappyError);
    // @ts-expect-error: bounds is required
    expect(() => new GossipTransform({ codec })).toThrow(/bounds/);
    expect(() => new GossipTransform({ codec, bounds, maxsize: 1 } as never)).toThrow(
      /unknown key/,
    );
    const transform = new GossipTransform({ codec, bounds });
    expect(reasonOf(() => transform.inboundTransform(TOPIC, [1, 2] as never))).toBe("not-bytes");
  });

  it("works with a codec that has no uncompressInto (owned results)", () => {
    const { uncompressInto: _, ...plain } = codec;
    const transform = new GossipTransform({ codec: plain as typeof codec, bounds });
    const out = transform.inboundTransform(TOPIC, wire);
    expect(out).toEqual(ssz);
    expect(out.buffer.byteLength).toBe(144);
  });
});

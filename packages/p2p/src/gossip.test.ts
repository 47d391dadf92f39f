import { createCodec } from "@snappykit/auto";
import { encodeUncompressedLength, SnappyError } from "@snappykit/core";
import { getGolden, getPayload } from "@snappykit/fixtures";
import { describe, expect, it } from "vitest";
import {
  computeMessageId,
  createFastMsgIdFn,
  type GossipMetrics,
  GossipTransform,
  gossipMessageId,
  msgIdToStrFn,
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

  it("is the valid-Snappy id for a valid message of any size, over 10 MiB too", () => {
    const big = new Uint8Array(11 * 1024 * 1024).fill(7);
    expect(hex(computeMessageId(codec, TOPIC, codec.compress(big)))).toBe(
      hex(gossipMessageId(TOPIC, big)),
    );
  });

  it("throws, rather than give the invalid-Snappy id, when the codec itself breaks", () => {
    const broken = {
      ...codec,
      uncompress: () => {
        throw new TypeError("bug");
      },
    };
    expect(() => computeMessageId(broken, TOPIC, wire)).toThrow(
      expect.objectContaining({ reason: "backend-failed" }),
    );
  });
});

describe("fastMsgIdFn and msgIdToStrFn", () => {
  it("hash the compressed data per topic with a seed, as Lodestar's", async () => {
    const fast = await createFastMsgIdFn(7n);
    const again = await createFastMsgIdFn(7n);
    const other = await createFastMsgIdFn(8n);
    const id = fast({ topic: TOPIC, data: wire });
    expect(id).toMatch(/^[0-9a-f]{1,16}$/);
    expect(again({ topic: TOPIC, data: wire })).toBe(id);
    expect(other({ topic: TOPIC, data: wire })).not.toBe(id);
    expect(fast({ topic: `${TOPIC}x`, data: wire })).not.toBe(id);
    expect(fast({ topic: TOPIC })).toBe("0000000000000000");
  });

  it("msgIdToStrFn is 0x-prefixed hex", () => {
    expect(msgIdToStrFn(Uint8Array.of(0, 1, 0xab, 0xff))).toBe("0x0001abff");
  });
});

describe("GossipTransform", () => {
  const bounds = () => ({ minSize: 144, maxSize: 144 });

  it("round-trips every gossip fixture and reports metrics", async () => {
    const { events, metrics } = recorder();
    const transform = new GossipTransform({
      codec,
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

  it("gives every result a buffer of its own, which a transfer takes alone", () => {
    const transform = new GossipTransform({ codec, bounds });
    const results = Array.from({ length: 30 }, () => transform.inboundTransform(TOPIC, wire));
    for (const out of results) {
      expect(out.byteOffset).toBe(0);
      expect(out.buffer.byteLength).toBe(ssz.length);
      expect(Object.getPrototypeOf(out)).toBe(Uint8Array.prototype);
    }
    // As Lodestar's network worker posts each message: its buffer transferred.
    const moved = results.map((out) =>
      structuredClone(out, { transfer: [out.buffer as ArrayBuffer] }),
    );
    for (const out of moved) expect(out).toEqual(ssz);
    const block = getPayload("beacon-block").items[0]!;
    const big = new GossipTransform({ codec, bounds: () => ({ minSize: 0, maxSize: 1 << 24 }) });
    const out = big.inboundTransform("b", codec.compress(block));
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(block.length);
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

  it("calls the codec's methods on the codec: a class codec works", () => {
    class Wrapped {
      readonly #inner = codec;
      readonly name = "wrapped";
      compress(input: Uint8Array) {
        return this.#inner.compress(input);
      }
      uncompress(input: Uint8Array, options?: { maxLength?: number }) {
        return this.#inner.uncompress(input, options);
      }
      uncompressInto(input: Uint8Array, output: Uint8Array, options?: { maxLength?: number }) {
        return this.#inner.uncompressInto!(input, output, options);
      }
    }
    const transform = new GossipTransform({ codec: new Wrapped() as never, bounds });
    expect(transform.inboundTransform(TOPIC, transform.outboundTransform(TOPIC, ssz))).toEqual(ssz);
  });

  /** The reason of what `call` throws, and whether `cause` is in its chain. */
  const fault = (call: () => unknown, cause: unknown) => {
    try {
      call();
    } catch (error) {
      expect(error).toBeInstanceOf(SnappyError);
      const chain: unknown[] = [];
      for (let e = error; e instanceof Error; e = e.cause) chain.push(e);
      return { reason: (error as SnappyError).reason, caused: chain.includes(cause) };
    }
    throw new Error("did not throw");
  };
  const bug = new TypeError("a bug");
  const throwing = () => {
    throw bug;
  };

  it("blames a codec whose uncompressInto throws, not the peer: backend-failed", () => {
    const broken = { ...codec, uncompressInto: throwing };
    const transform = new GossipTransform({ codec: broken, bounds });
    expect(fault(() => transform.inboundTransform(TOPIC, wire), bug)).toEqual({
      reason: "backend-failed",
      caused: true,
    });
  });

  it("blames a codec whose uncompress throws, not the peer: backend-failed", () => {
    const { uncompressInto: _, ...plain } = codec;
    const transform = new GossipTransform({ codec: { ...plain, uncompress: throwing }, bounds });
    expect(fault(() => transform.inboundTransform(TOPIC, wire), bug)).toEqual({
      reason: "backend-failed",
      caused: true,
    });
  });

  it("blames a codec whose compress throws: backend-failed", () => {
    const transform = new GossipTransform({ codec: { ...codec, compress: throwing }, bounds });
    expect(fault(() => transform.outboundTransform(TOPIC, ssz), bug)).toEqual({
      reason: "backend-failed",
      caused: true,
    });
  });

  it("blames a metrics callback that throws on the application: bad-options", () => {
    for (const name of ["onInbound", "onOutbound", "onReject"] as const) {
      const transform = new GossipTransform({ codec, bounds, metrics: { [name]: throwing } });
      const call =
        name === "onOutbound"
          ? () => transform.outboundTransform(TOPIC, ssz)
          : name === "onInbound"
            ? () => transform.inboundTransform(TOPIC, wire)
            : () => transform.inboundTransform(TOPIC, wire.subarray(0, 1));
      expect(fault(call, bug), name).toEqual({ reason: "bad-options", caused: true });
    }
  });

  it("refuses a declared length the body cannot fill before allocating it", () => {
    const MiB = 1024 * 1024;
    // 9 bytes declaring 10 MiB: within a block topic's bounds, 5 bytes of body.
    const bomb = Uint8Array.of(...encodeUncompressedLength(10 * MiB), 0xfe, 0, 0, 0, 0);
    expect(bomb.length).toBe(9);
    const transform = new GossipTransform({
      codec,
      bounds: () => ({ minSize: 0, maxSize: 10 * MiB }),
    });
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    for (let i = 0; i < 20; i++) {
      expect(reasonOf(() => transform.inboundTransform(TOPIC, bomb))).toBe("length-over-expansion");
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }
    expect(peak).toBeLessThan(64 * 1024);
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

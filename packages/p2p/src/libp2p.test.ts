// Two real libp2p nodes in one process (TCP on 127.0.0.1, Noise, Yamux, gossipsub 14): gossip
// through the transform, and beacon_blocks_by_range over a real stream.
import { createHash } from "node:crypto";
import { type GossipsubEvents, gossipsub } from "@chainsafe/libp2p-gossipsub";
import { noise } from "@chainsafe/libp2p-noise";
import { yamux } from "@chainsafe/libp2p-yamux";
import { identify } from "@libp2p/identify";
import type { Libp2p, PubSub, Stream } from "@libp2p/interface";
import { tcp } from "@libp2p/tcp";
import { createCodec } from "@snappykit/auto";
import { getPayload } from "@snappykit/fixtures";
import { createLibp2p } from "libp2p";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  GossipTransform,
  gossipMessageId,
  ResponseError,
} from "./index.js";
import { expectSameBytes } from "./test/helpers.js";

// libp2p 2's dependencies call Promise.withResolvers (Node 22+); the tools here run Node 20.
if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    value<T>() {
      let resolve!: (value: T) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

const codec = await createCodec();
const FORK = "4a26c58b";
const DIGEST = Buffer.from(FORK, "hex");
const FIXTURES = [
  "single-attestation",
  "attestation",
  "aggregate-and-proof",
  "sync-committee-message",
  "contribution-and-proof",
  "beacon-block",
  "blob-sidecar",
  "data-column-sidecar",
];
const topicOf = (name: string) => `/eth2/${FORK}/${name}/ssz_snappy`;
const payloads = new Map(FIXTURES.map((n) => [topicOf(n), getPayload(n).items[0]!]));
const CORRUPT = topicOf("corrupt");
const PROTOCOL = "/eth2/beacon_chain/req/beacon_blocks_by_range/2/ssz_snappy";
const blocks = getPayload("blocks-by-range").items;
const BLOCK = { minSize: 100, maxSize: 10 * 1024 * 1024 };
const byDigest = (d: Uint8Array) => (DIGEST.equals(d) ? BLOCK : undefined);

// Node B: each fixture topic bounded to its fixture's size (as a type's bounds would be).
const bounds = (topic: string) => {
  const item = topic === CORRUPT ? new Uint8Array(300) : payloads.get(topic);
  return item && { minSize: Math.min(item.length, 100), maxSize: item.length };
};
const rejects: string[] = [];
const receiver = new GossipTransform({
  codec,
  bounds,
  metrics: { onReject: (topic, reason) => rejects.push(`${topic} ${reason}`) },
});
// Node A, the publisher: looser bounds (so it can send an oversize message), and raw bytes
// on the corrupt topic, as a hostile peer would.
const sender = new GossipTransform({ codec, bounds: () => ({ minSize: 0, maxSize: 1 << 24 }) });
const hostile = {
  inboundTransform: (topic: string, data: Uint8Array) => sender.inboundTransform(topic, data),
  outboundTransform: (topic: string, data: Uint8Array) =>
    topic === CORRUPT ? data : sender.outboundTransform(topic, data),
};

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

async function node(
  dataTransform: typeof hostile,
): Promise<Libp2p<{ pubsub: PubSub<GossipsubEvents> }>> {
  return createLibp2p({
    addresses: { listen: ["/ip4/127.0.0.1/tcp/0"] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: {
      identify: identify(),
      pubsub: gossipsub({
        globalSignaturePolicy: "StrictNoSign",
        dataTransform,
        msgIdFn: (msg) => gossipMessageId(msg.topic, msg.data),
        msgIdToStrFn: hex,
        allowPublishToZeroTopicPeers: false,
        emitSelf: false,
      }),
    },
  }) as Promise<Libp2p<{ pubsub: PubSub<GossipsubEvents> }>>;
}

/** Node B's beacon_blocks_by_range handler: the fixture chain, an error for a bad count. */
const serveByRange = async ({ stream }: { stream: Stream }) => {
  const request = await decodeRequest(stream.source, {
    codec,
    bounds: { minSize: 24, maxSize: 24 },
  });
  const view = new DataView(request.buffer, request.byteOffset, 24);
  const start = Number(view.getBigUint64(0, true));
  const count = Number(view.getBigUint64(8, true));
  async function* chunks() {
    if (count === 0 || count > 1024) {
      yield { result: 1, message: `invalid count ${count}` };
      return;
    }
    for (let i = start; i < Math.min(start + count, blocks.length); i++) {
      yield { ssz: blocks[i]!, context: DIGEST };
    }
  }
  await stream
    .sink(encodeResponse(chunks(), { codec }))
    .catch(() => stream.abort(new Error("client went away")));
};

let a: Libp2p<{ pubsub: PubSub<GossipsubEvents> }>;
let b: Libp2p<{ pubsub: PubSub<GossipsubEvents> }>;
let unhandled = 0;
const onUnhandled = () => unhandled++;

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  [a, b] = await Promise.all([node(hostile), node(receiver)]);
  const topics = [...payloads.keys(), CORRUPT];
  for (const t of topics) b.services.pubsub.subscribe(t);
  // Registered before the nodes connect: registering later awaits an identify push.
  await b.handle(PROTOCOL, serveByRange);
  await a.dial(b.getMultiaddrs()[0]!);
  // Wait until A knows B's subscriptions.
  for (let i = 0; i < 200; i++) {
    if (topics.every((t) => a.services.pubsub.getSubscribers(t).some((p) => p.equals(b.peerId))))
      break;
    await new Promise((r) => setTimeout(r, 25));
  }
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toBe(0);
});

/** SHA-256 of the spec's preimage, assembled by hand (not by the package). */
function expectedId(topic: string, ssz: Uint8Array): string {
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(topic)));
  const preimage = Buffer.concat([Buffer.from([1, 0, 0, 0]), length, Buffer.from(topic), ssz]);
  return createHash("sha256").update(preimage).digest("hex").slice(0, 40);
}

describe("beacon_blocks_by_range over a libp2p stream", () => {
  const request = (start: number, count: number) => {
    const bytes = new Uint8Array(24);
    const view = new DataView(bytes.buffer);
    view.setBigUint64(0, BigInt(start), true);
    view.setBigUint64(8, BigInt(count), true);
    view.setBigUint64(16, 1n, true);
    return bytes;
  };

  async function open(start: number, count: number) {
    const stream = await a.dialProtocol(b.peerId, PROTOCOL);
    await stream.sink(encodeRequest(request(start, count), { codec }));
    return stream;
  }

  it("serves 32 fixture blocks", async () => {
    const stream = await open(0, 32);
    const got = [];
    for await (const chunk of decodeResponse(stream.source, {
      codec,
      bounds: byDigest,
      maxChunks: 32,
    })) {
      got.push(chunk.ssz);
      expect(DIGEST.equals(chunk.context!)).toBe(true);
    }
    expectSameBytes(got, blocks);
  });

  it("answers an invalid request with an error response", async () => {
    const stream = await open(0, 0);
    const error = await (async () => {
      for await (const _ of decodeResponse(stream.source, { codec, bounds: byDigest })) {
        // none
      }
    })().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ result: 1, text: "invalid count 0" });
  });

  it("aborts mid-stream and the node goes on serving", async () => {
    const stream = await open(0, 32);
    const controller = new AbortController();
    let n = 0;
    const error = await (async () => {
      for await (const _ of decodeResponse(stream.source, {
        codec,
        bounds: byDigest,
        signal: controller.signal,
      })) {
        if (++n === 5) controller.abort(new Error("enough"));
      }
    })().catch((e) => e);
    stream.abort(error);
    expect(error).toMatchObject({ message: "enough" });
    expect(n).toBe(5);
    const again = await open(30, 2);
    const rest = [];
    for await (const chunk of decodeResponse(again.source, {
      codec,
      bounds: byDigest,
      maxChunks: 2,
    }))
      rest.push(chunk.ssz);
    expectSameBytes(rest, blocks.slice(30));
  });
});

describe("gossip between two libp2p nodes", () => {
  it("delivers every fixture with its bytes and message id; refuses oversize and corrupt", async () => {
    const received = new Map<string, { data: Uint8Array; msgId: string }>();
    const sentinel = topicOf("sync-committee-message");
    let done!: () => void;
    const finished = new Promise<void>((r) => {
      done = r;
    });
    b.services.pubsub.addEventListener("gossipsub:message", (event) => {
      const { msg, msgId } = event.detail;
      received.set(`${msg.topic}#${received.size}`, { data: msg.data, msgId });
      if (received.size === payloads.size + 1) done();
    });
    for (const [topic, ssz] of payloads) await a.services.pubsub.publish(topic, ssz);
    // Hostile: over the topic's maxSize by one byte; not Snappy at all.
    const attestation = topicOf("attestation");
    await a.services.pubsub.publish(
      attestation,
      new Uint8Array(payloads.get(attestation)!.length + 1).fill(7),
    );
    await a.services.pubsub.publish(CORRUPT, Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3));
    // Messages on one connection arrive in order: once this one is in, the hostile ones were seen.
    await a.services.pubsub.publish(sentinel, Uint8Array.from(payloads.get(sentinel)!).reverse());
    await finished;
    const got = [...received.entries()];
    for (const [topic, ssz] of payloads) {
      const entry = got.find(
        ([k, v]) => k.startsWith(`${topic}#`) && Buffer.from(v.data).equals(Buffer.from(ssz)),
      );
      expect(entry, topic).toBeDefined();
      expect(entry![1].msgId).toBe(expectedId(topic, ssz));
    }
    expect(got.filter(([k]) => k.startsWith(`${attestation}#`)).length).toBe(1);
    expect(got.some(([k]) => k.startsWith(`${CORRUPT}#`))).toBe(false);
    expect(rejects).toEqual([`${attestation} length-over-limit`, `${CORRUPT} bad-preamble`]);
  });
});

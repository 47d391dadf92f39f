// Two real libp2p 3 nodes in one process (TCP on 127.0.0.1, Noise, mplex with Lodestar's
// settings or yamux, gossipsub 16 or 17): gossip through the transform, and
// beacon_blocks_by_range over a real stream, each early end leaving the stream shut.
import { createHash } from "node:crypto";
import type { Stream } from "@libp2p/interface";
import { createCodec } from "@snappykit/auto";
import { getPayload } from "@snappykit/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFastMsgIdFn,
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  GossipTransform,
  ResponseError,
  writeToStream,
} from "./index.js";
import { expectSameBytes, GOSSIP_FIXTURES } from "./test/helpers.js";
import {
  awaitSubscribed,
  createNode,
  type GossipsubVersion,
  type Muxer,
  type Node,
} from "./test/nodes.js";

const codec = await createCodec();
const FORK = "4a26c58b";
const DIGEST = Buffer.from(FORK, "hex");
const topicOf = (name: string) => `/eth2/${FORK}/${name}/ssz_snappy`;
const payloads = new Map(GOSSIP_FIXTURES.map((n) => [topicOf(n), getPayload(n).items[0]!]));
const CORRUPT = topicOf("corrupt");
const PROTOCOL = "/eth2/beacon_chain/req/beacon_blocks_by_range/2/ssz_snappy";
const HOSTILE = "/eth2/beacon_chain/req/hostile/1/ssz_snappy";
const blocks = getPayload("blocks-by-range").items;
const BLOCK = { minSize: 100, maxSize: 10 * 1024 * 1024 };
const byDigest = (d: Uint8Array) => (DIGEST.equals(d) ? BLOCK : undefined);

// The receiver: each fixture topic bounded to its fixture's size (as a type's bounds would be).
const bounds = (topic: string) => {
  const item = topic === CORRUPT ? new Uint8Array(300) : payloads.get(topic);
  return item && { minSize: Math.min(item.length, 100), maxSize: item.length };
};

/** The receiver's beacon_blocks_by_range handler: the fixture chain, an error for a bad request. */
async function serveByRange(stream: Stream) {
  let request: Uint8Array;
  try {
    request = await decodeRequest(stream, { codec, bounds: { minSize: 24, maxSize: 24 } });
  } catch (error) {
    const message = `invalid request: ${(error as { reason?: string }).reason}`;
    await writeToStream(stream, encodeResponse([{ result: 1, message }], { codec }));
    return;
  }
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
  // A requester that stops early aborts the stream: the write fails, and it is aborted here too.
  await writeToStream(stream, encodeResponse(chunks(), { codec })).catch(() => {});
}

/** A responder that sends a reserved result code and then leaves the stream open. */
function serveHostile(stream: Stream) {
  stream.send(Uint8Array.of(7, 1, 2, 3));
}

/** SHA-256 of the spec's preimage, assembled by hand (not by the package). */
function expectedId(topic: string, ssz: Uint8Array): string {
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(topic)));
  const preimage = Buffer.concat([Buffer.from([1, 0, 0, 0]), length, Buffer.from(topic), ssz]);
  return `0x${createHash("sha256").update(preimage).digest("hex").slice(0, 40)}`;
}

const request = (start: number, count: number) => {
  const bytes = new Uint8Array(24);
  const view = new DataView(bytes.buffer);
  view.setBigUint64(0, BigInt(start), true);
  view.setBigUint64(8, BigInt(count), true);
  view.setBigUint64(16, 1n, true);
  return bytes;
};

const STACKS: [GossipsubVersion, Muxer][] = [
  [16, "mplex"],
  [16, "yamux"],
  [17, "mplex"],
  [17, "yamux"],
];

describe.each(STACKS)("libp2p 3, gossipsub %i, %s", (version, muxer) => {
  let a: Node;
  let b: Node;
  const rejects: string[] = [];
  let unhandled = 0;
  const onUnhandled = () => unhandled++;

  beforeAll(async () => {
    process.on("unhandledRejection", onUnhandled);
    const receiver = new GossipTransform({
      codec,
      bounds,
      metrics: { onReject: (topic, reason) => rejects.push(`${topic} ${reason}`) },
    });
    // The publisher: loose bounds (so it can send an oversize message), and raw bytes on the
    // corrupt topic, as a hostile peer would.
    const sender = new GossipTransform({ codec, bounds: () => ({ minSize: 0, maxSize: 1 << 24 }) });
    const hostile = {
      inboundTransform: (topic: string, data: Uint8Array) => sender.inboundTransform(topic, data),
      outboundTransform: (topic: string, data: Uint8Array) =>
        topic === CORRUPT ? data : sender.outboundTransform(topic, data),
    };
    const fast = await createFastMsgIdFn();
    [a, b] = await Promise.all([
      createNode(version, muxer, hostile, fast),
      createNode(version, muxer, receiver, fast),
    ]);
    const topics = [...payloads.keys(), CORRUPT];
    for (const t of topics) b.services.pubsub.subscribe(t);
    // Registered before the nodes connect: registering later awaits an identify push.
    await b.handle(PROTOCOL, serveByRange);
    await b.handle(HOSTILE, serveHostile);
    await a.dial(b.getMultiaddrs()[0]!);
    await awaitSubscribed(a, b.peerId, topics);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    process.off("unhandledRejection", onUnhandled);
    expect(unhandled).toBe(0);
  });

  async function open(start: number, count: number) {
    const stream = await a.dialProtocol(b.peerId, PROTOCOL);
    await writeToStream(stream, encodeRequest(request(start, count), { codec }));
    return stream;
  }

  it("gossip: every fixture with its bytes and message id; oversize and corrupt refused", async () => {
    const received: { topic: string; data: Uint8Array; msgId: string }[] = [];
    const sentinel = topicOf("sync-committee-message");
    let done!: () => void;
    const finished = new Promise<void>((r) => {
      done = r;
    });
    b.services.pubsub.addEventListener("gossipsub:message", (event) => {
      const { msg, msgId } = event.detail;
      received.push({ topic: msg.topic, data: msg.data, msgId });
      if (received.length === payloads.size + 1) done();
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
    for (const [topic, ssz] of payloads) {
      const entry = received.find(
        (m) => m.topic === topic && Buffer.from(m.data).equals(Buffer.from(ssz)),
      );
      expect(entry, topic).toBeDefined();
      expect(entry!.msgId).toBe(expectedId(topic, ssz));
      expect(entry!.data.byteOffset).toBe(0);
      expect(entry!.data.buffer.byteLength).toBe(ssz.length);
    }
    expect(received.filter((m) => m.topic === attestation).length).toBe(1);
    expect(received.some((m) => m.topic === CORRUPT)).toBe(false);
    expect(rejects).toEqual([`${attestation} length-over-limit`, `${CORRUPT} bad-preamble`]);
  });

  it("req/resp: serves 32 blocks; the stream ends closed", async () => {
    const stream = await open(0, 32);
    const got = [];
    for await (const chunk of decodeResponse(stream, { codec, bounds: byDigest, maxChunks: 32 })) {
      got.push(chunk.ssz);
      expect(DIGEST.equals(chunk.context!)).toBe(true);
    }
    expectSameBytes(got, blocks);
    await expect.poll(() => stream.status).toBe("closed");
  });

  it("req/resp: an invalid request is answered with an error response", async () => {
    const stream = await open(0, 0);
    const error = await (async () => {
      for await (const _ of decodeResponse(stream, { codec, bounds: byDigest })) {
        // none
      }
    })().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ result: 1, text: "invalid count 0" });
    const bad = await a.dialProtocol(b.peerId, PROTOCOL);
    await writeToStream(bad, [Uint8Array.of(0x98, 0x00)]);
    await expect(decodeResponse(bad, { codec, bounds: byDigest }).next()).rejects.toMatchObject({
      result: 1,
      text: "invalid request: non-minimal-prefix",
    });
  });

  // The early ends ask for 8 blocks: after an abort, mplex counts each message still in flight
  // for the stream it no longer knows, and closes the connection past disconnectThreshold
  // (50, Lodestar's setting); a 32-block response has more than 50 messages in flight.

  /** The stream's state after an early end: never still open. */
  const shut = (stream: Stream) => expect(["closed", "aborted", "reset"]).toContain(stream.status);

  it("req/resp: breaking out of the loop aborts the stream", async () => {
    const stream = await open(0, 8);
    let n = 0;
    for await (const _ of decodeResponse(stream, { codec, bounds: byDigest })) if (++n === 3) break;
    expect(n).toBe(3);
    shut(stream);
  });

  it("req/resp: an abort mid-stream aborts the stream, and the node goes on serving", async () => {
    const stream = await open(0, 8);
    const controller = new AbortController();
    let n = 0;
    const error = await (async () => {
      for await (const _ of decodeResponse(stream, {
        codec,
        bounds: byDigest,
        signal: controller.signal,
      })) {
        if (++n === 5) controller.abort(new Error("enough"));
      }
    })().catch((e) => e);
    expect(error).toMatchObject({ message: "enough" });
    expect(n).toBe(5);
    shut(stream);
    const again = await open(30, 2);
    const rest = [];
    for await (const chunk of decodeResponse(again, { codec, bounds: byDigest, maxChunks: 2 }))
      rest.push(chunk.ssz);
    expectSameBytes(rest, blocks.slice(30));
  });

  it("req/resp: a limit (maxChunks) aborts the stream", async () => {
    const stream = await open(0, 8);
    await expect(
      (async () => {
        for await (const _ of decodeResponse(stream, { codec, bounds: byDigest, maxChunks: 4 })) {
          // four, then too-many-chunks
        }
      })(),
    ).rejects.toMatchObject({ reason: "too-many-chunks" });
    shut(stream);
  });

  it("req/resp: a peer's bad bytes abort the stream it leaves open", async () => {
    const stream = await a.dialProtocol(b.peerId, HOSTILE);
    await writeToStream(stream, encodeRequest(request(0, 1), { codec }));
    await expect(decodeResponse(stream, { codec, bounds: byDigest }).next()).rejects.toMatchObject({
      reason: "bad-result-code",
    });
    shut(stream);
  });
});

// The README's examples, line for line (the first test checks that they still are), run on
// two libp2p 3 nodes.
import { readFileSync } from "node:fs";
import { gossipsub } from "@libp2p/gossipsub";
import { getPayload } from "@snappykit/fixtures";
import { ByteReader } from "@snappykit/framing";
import { createCodec } from "@snappykit/ts";
import { afterAll, describe, expect, it } from "vitest";
import {
  createFastMsgIdFn,
  decodeRequest,
  decodeResponse,
  decodeSszSnappy,
  decodeSszSnappySequence,
  encodeRequest,
  encodeResponse,
  encodeSszSnappy,
  encodeSszSnappySequence,
  GossipTransform,
  gossipMessageId,
  msgIdToStrFn,
  ResponseError,
  readSszSnappy,
  writeToStream,
} from "./index.js";
import { expectSameBytes } from "./test/helpers.js";
import { createNode, type Node } from "./test/nodes.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const self = readFileSync(new URL(import.meta.url), "utf8");
const message = getPayload("sync-committee-message").items[0]!;
const block = getPayload("blocks-by-range").items[0]!;
const forkDigest = Uint8Array.of(0x4a, 0x26, 0xc5, 0x8b);
const equal = (x: Uint8Array, y: Uint8Array) => Buffer.from(x).equals(Buffer.from(y));
/** The application's chain lookup: the fixture block for a 24-byte request. */
const blockAt = (request: Uint8Array) => (request.length === 24 ? block : new Uint8Array(0));
const PROTOCOL = "/eth2/beacon_chain/req/beacon_blocks_by_range/2/ssz_snappy";

describe("README", () => {
  it("shows exactly the code these tests run", () => {
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(4);
    // Compared without whitespace: the formatter wraps this file's lines, not the README's.
    const flat = (text: string) => text.replace(/\s+/g, "");
    const code = flat(self);
    for (const block of blocks) {
      expect(code).toContain(flat(block.replace(/^import [\s\S]*?from "[^"]+";/gm, "")));
    }
  });

  it("gossip example", async () => {
    const rejected: string[] = [];
    const codec = await createCodec();
    const transform = new GossipTransform({
      codec,
      // The topic's SSZ type, or anything with minSize and maxSize.
      bounds: (topic) =>
        topic.includes("/sync_committee_") ? { minSize: 144, maxSize: 144 } : undefined,
      metrics: { onReject: (topic, reason) => rejected.push(`${topic}: ${reason}`) },
    });
    // The pubsub service of createLibp2p({ services: { pubsub } }).
    const pubsub = gossipsub({
      globalSignaturePolicy: "StrictNoSign",
      dataTransform: transform,
      msgIdFn: (msg) => gossipMessageId(msg.topic, msg.data),
      fastMsgIdFn: await createFastMsgIdFn(),
      msgIdToStrFn,
    });

    const topic = "/eth2/4a26c58b/sync_committee_0/ssz_snappy";
    const wire = transform.outboundTransform(topic, message); // compressed
    const ssz = transform.inboundTransform(topic, wire); // bounds checked before allocating
    expect(typeof pubsub).toBe("function");
    expect(ssz).toEqual(message);
    expect(() => transform.inboundTransform("/eth2/x/beacon_block/ssz_snappy", wire)).toThrow();
    expect(rejected).toEqual(["/eth2/x/beacon_block/ssz_snappy: bad-options"]);
  });

  const nodes: Node[] = [];
  afterAll(() => Promise.all(nodes.map((n) => n.stop())));

  it("req/resp example, between two libp2p 3 nodes", async () => {
    const codec = await createCodec();
    const plain = new GossipTransform({ codec, bounds: () => undefined });
    const [responder, requester] = await Promise.all([
      createNode(17, "yamux", plain),
      createNode(17, "yamux", plain),
    ]);
    nodes.push(responder, requester);
    // The responder: libp2p 3 calls a handler with (stream, connection).
    await responder.handle(PROTOCOL, async (stream) => {
      const request = await decodeRequest(stream, { codec, bounds: { minSize: 24, maxSize: 24 } });
      const chunks = [
        { ssz: blockAt(request), context: forkDigest },
        { result: 3, message: "older blocks pruned" }, // an error chunk ends the response
      ];
      await writeToStream(stream, encodeResponse(chunks, { codec }));
    });
    await requester.dial(responder.getMultiaddrs()[0]!);
    const request = new Uint8Array(24).fill(1);
    let logged: unknown[] = [];
    const console = { log: (...args: unknown[]) => (logged = args) };
    // The requester.
    const stream = await requester.dialProtocol(responder.peerId, PROTOCOL);
    await writeToStream(stream, encodeRequest(request, { codec }));
    const blocks = [];
    try {
      for await (const chunk of decodeResponse(stream, {
        codec,
        bounds: (digest) =>
          equal(digest, forkDigest) ? { minSize: 100, maxSize: 10_485_760 } : undefined,
        maxChunks: 32,
        signal: AbortSignal.timeout(10_000),
      })) {
        blocks.push(chunk.ssz);
      }
    } catch (error) {
      if (!(error instanceof ResponseError)) throw error; // a SnappyError: see its reason
      console.log(error.result, error.text); // 3 "older blocks pruned"
    }
    expect(blocks).toEqual([block]);
    expect(logged).toEqual([3, "older blocks pruned"]);
  });

  it("ssz_snappy example", async () => {
    const codec = await createCodec();
    const sszBlock = block;
    const blocks = getPayload("blocks-by-range").items;
    // A network stream as a reader sees it: here, the one payload in two parts.
    const whole = encodeSszSnappy(codec, sszBlock);
    const stream = [whole.subarray(0, 100), whole.subarray(100)];
    const wire = encodeSszSnappy(codec, sszBlock); // varint(length) + framed stream
    const ssz = decodeSszSnappy(codec, wire, { minSize: 100, maxSize: 10 << 20 }); // sync from bytes
    const ssz2 = await decodeSszSnappy(codec, stream, { minSize: 100, maxSize: 10 << 20 }); // from a stream

    // A by-range response: payloads back to back.
    const response = encodeSszSnappySequence(codec, blocks);
    const decoded = decodeSszSnappySequence(codec, response, { minSize: 0, maxSize: 10 << 20 });
    // ... or one at a time off a network stream, leaving the rest unread:
    const reader = new ByteReader(stream);
    const first = await readSszSnappy(codec, reader, { minSize: 0, maxSize: 10 << 20 });
    expectSameBytes([ssz, ssz2, first], [block, block, block]);
    expectSameBytes(decoded, blocks);
  });
});

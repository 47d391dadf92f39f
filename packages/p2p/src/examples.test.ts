// The README's examples, line for line (the first test checks that they still are), run
// against in-memory streams.
import { readFileSync } from "node:fs";
import { getPayload } from "@snappykit/fixtures";
import { describe, expect, it } from "vitest";
import {
  createGossipTransform,
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  gossipMessageId,
  ResponseError,
} from "./index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const self = readFileSync(new URL(import.meta.url), "utf8");
const message = getPayload("sync-committee-message").items[0]!;
const block = getPayload("blocks-by-range").items[0]!;
const forkDigest = Uint8Array.of(0x4a, 0x26, 0xc5, 0x8b);
const equal = (x: Uint8Array, y: Uint8Array) => Buffer.from(x).equals(Buffer.from(y));

/** A duplex pair's two ends, as libp2p streams: a `source` and a `sink`. */
function pipe() {
  const chunks: Uint8Array[] = [];
  let ended!: () => void;
  const done = new Promise<void>((r) => {
    ended = r;
  });
  return {
    sink: async (source: AsyncIterable<Uint8Array>) => {
      for await (const c of source) chunks.push(c);
      ended();
    },
    source: (async function* () {
      await done;
      yield* chunks;
    })(),
  };
}

describe("README", () => {
  it("shows exactly the code these tests run", () => {
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(3);
    // Compared without whitespace: the formatter wraps this file's lines, not the README's.
    const flat = (text: string) => text.replace(/\s+/g, "");
    const code = flat(self);
    for (const block of blocks) {
      expect(code).toContain(flat(block.replace(/^import [\s\S]*?from "[^"]+";/gm, "")));
    }
  });

  it("gossip example", async () => {
    const rejected: string[] = [];
    const transform = await createGossipTransform({
      // The topic's SSZ type, or anything with minSize and maxSize.
      bounds: (topic) =>
        topic.includes("/sync_committee_") ? { minSize: 144, maxSize: 144 } : undefined,
      metrics: { onReject: (topic, reason) => rejected.push(`${topic}: ${reason}`) },
    });
    // gossipsub({ dataTransform: transform, msgIdFn, globalSignaturePolicy: "StrictNoSign" })
    const msgIdFn = (msg: { topic: string; data: Uint8Array }) =>
      gossipMessageId(msg.topic, msg.data);

    const topic = "/eth2/4a26c58b/sync_committee_0/ssz_snappy";
    const wire = transform.outboundTransform(topic, message); // compressed
    const ssz = transform.inboundTransform(topic, wire); // bounds checked before allocating
    const id = msgIdFn({ topic, data: ssz }); // 20 bytes
    expect(ssz).toEqual(message);
    expect(id.length).toBe(20);
    expect(() => transform.inboundTransform("/eth2/x/beacon_block/ssz_snappy", wire)).toThrow();
    expect(rejected).toEqual(["/eth2/x/beacon_block/ssz_snappy: bad-options"]);
  });

  it("req/resp example", async () => {
    const toResponder = pipe();
    const toRequester = pipe();
    const stream = { source: toResponder.source, sink: toRequester.sink };
    const requester = { source: toRequester.source, sink: toResponder.sink };
    const sent = new Uint8Array(24);
    const responder = (async () => {
      // The responder (stream from libp2p's handle()).
      const request = await decodeRequest(stream.source, { bounds: { minSize: 24, maxSize: 24 } });
      await stream.sink(
        encodeResponse([
          { ssz: block, context: forkDigest },
          { result: 3, message: "older blocks pruned" }, // an error chunk ends the response
        ]),
      );
      return request;
    })();
    const request = sent;
    let logged: unknown[] = [];
    const console = { log: (...args: unknown[]) => (logged = args) };
    // The requester (stream from dialProtocol()).
    await requester.sink(encodeRequest(request));
    const blocks = [];
    try {
      for await (const chunk of decodeResponse(requester.source, {
        bounds: (digest) =>
          equal(digest, forkDigest) ? { minSize: 100, maxSize: 10_485_760 } : undefined,
        maxChunks: 32,
        signal: AbortSignal.timeout(10_000),
      })) {
        blocks.push(chunk.ssz);
      }
    } catch (error) {
      if (!(error instanceof ResponseError)) throw error; // a SnappyError: score the peer
      console.log(error.result, error.text); // 3 "older blocks pruned"
    }
    expect(await responder).toEqual(sent);
    expect(blocks).toEqual([block]);
    expect(logged).toEqual([3, "older blocks pruned"]);
  });
});

// Lodestar's worker hand-off over the network: 600 gossip messages from one libp2p 3 node to
// another running in a worker thread, each posted from there to this thread with its buffer
// transferred (src/test/handoff-worker.ts). Every message must arrive, intact.
import { Worker } from "node:worker_threads";
import { multiaddr } from "@multiformats/multiaddr";
import { createCodec } from "@snappykit/auto";
import { afterAll, expect, it } from "vitest";
import { GossipTransform, gossipMessageId, msgIdToStrFn } from "./index.js";
import { awaitSubscribed, createNode } from "./test/nodes.js";

const TOPIC = "/eth2/4a26c58b/beacon_attestation_0/ssz_snappy";
const COUNT = 600;
const MAX_SIZE = 4096;

// The worker runs the TypeScript sources as they are: Node strips the types, and this hook
// resolves their `.js` specifiers to the `.ts` files beside them.
const BOOT = `
const { registerHooks } = require("node:module");
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (!specifier.startsWith(".") || !specifier.endsWith(".js")) throw error;
      return next(specifier.slice(0, -3) + ".ts", context);
    }
  },
});
import(require("node:worker_threads").workerData.entry);
`;

/** Message `i`: sizes from 100 bytes to 4 KiB (the results a slab would have pooled), its index first. */
function message(i: number): Uint8Array {
  const out = new Uint8Array(100 + ((i * 997) % (MAX_SIZE - 100)));
  new DataView(out.buffer).setUint32(0, i, true);
  for (let k = 4; k < out.length; k++) out[k] = (i * 31 + k) & 0xff;
  return out;
}

const worker = new Worker(BOOT, {
  eval: true,
  workerData: {
    entry: new URL("./test/handoff-worker.ts", import.meta.url).href,
    topic: TOPIC,
    maxSize: MAX_SIZE,
  },
});
afterAll(async () => {
  worker.postMessage("stop");
  await new Promise((r) => worker.once("exit", r));
});

it("600 messages through a worker's transfer hand-off: 0 lost, every one intact", async () => {
  const codec = await createCodec();
  const received: { data: Uint8Array; msgId: string }[] = [];
  const errors: unknown[] = [];
  worker.on("error", (e) => errors.push(e));
  worker.on("messageerror", (e) => errors.push(e));
  let done!: () => void;
  const all = new Promise<void>((r) => {
    done = r;
  });
  const ready = new Promise<{ ready: string[]; peerId: string }>((resolve) => {
    worker.on("message", (m) => {
      if ("ready" in m) resolve(m);
      else {
        received.push(m);
        if (received.length === COUNT) done();
      }
    });
  });
  const { ready: addrs, peerId } = await ready;
  const sender = await createNode(
    17,
    "mplex",
    new GossipTransform({ codec, bounds: () => ({ minSize: 0, maxSize: MAX_SIZE }) }),
  );
  try {
    const connection = await sender.dial(multiaddr(addrs[0]!));
    expect(connection.remotePeer.toString()).toBe(peerId);
    await awaitSubscribed(sender, connection.remotePeer, [TOPIC]);
    for (let i = 0; i < COUNT; i++) await sender.services.pubsub.publish(TOPIC, message(i));
    await Promise.race([
      all,
      new Promise((_, reject) => setTimeout(() => reject(new Error("messages lost")), 60_000)),
    ]).catch(() => {});
  } finally {
    await sender.stop();
  }
  expect(errors).toEqual([]);
  expect(received.length).toBe(COUNT);
  const seen = new Set<number>();
  for (const { data, msgId } of received) {
    const i = new DataView(data.buffer, data.byteOffset).getUint32(0, true);
    seen.add(i);
    expect(Buffer.from(data).equals(Buffer.from(message(i))), `message ${i}`).toBe(true);
    expect(msgId).toBe(msgIdToStrFn(gossipMessageId(TOPIC, data)));
  }
  expect(seen.size).toBe(COUNT);
});

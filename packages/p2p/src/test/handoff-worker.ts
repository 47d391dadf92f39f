// The receiving node of handoff.test.ts, in a worker thread as Lodestar runs its network: each
// gossip message is posted to the main thread with its buffer transferred, as
// `lib/util/workerEvents.js` of `@lodestar/beacon-node` 1.44.0 does
// (`transferList = [payload.msg.data.buffer]`).
import { parentPort, workerData } from "node:worker_threads";
import { createCodec } from "@snappykit/auto";
import { GossipTransform } from "../index.js";
import { createNode } from "./nodes.js";

const { topic, maxSize } = workerData as { topic: string; maxSize: number };
const codec = await createCodec();
const node = await createNode(
  17,
  "mplex",
  new GossipTransform({ codec, bounds: () => ({ minSize: 0, maxSize }) }),
);
node.services.pubsub.subscribe(topic);
node.services.pubsub.addEventListener("gossipsub:message", (event) => {
  const { msg, msgId } = event.detail;
  const posted = { topic: msg.topic, data: msg.data, msgId };
  parentPort!.postMessage(posted, [msg.data.buffer as ArrayBuffer]);
});
parentPort!.on("message", async (message: string) => {
  if (message === "stop") {
    await node.stop();
    parentPort!.close();
  }
});
parentPort!.postMessage({
  ready: node.getMultiaddrs().map(String),
  peerId: node.peerId.toString(),
});

// Two libp2p 3 nodes as a consensus client runs them: TCP on 127.0.0.1, Noise, mplex (with
// Lodestar's `disconnectThreshold: 50`) or yamux, identify, and gossipsub 16 or 17 with the
// spec's message id.
import { noise } from "@chainsafe/libp2p-noise";
import { gossipsub as gossipsub17 } from "@libp2p/gossipsub";
import { identify } from "@libp2p/identify";
import type { Libp2p } from "@libp2p/interface";
import { mplex } from "@libp2p/mplex";
import { tcp } from "@libp2p/tcp";
import { yamux } from "@libp2p/yamux";
import { gossipsub as gossipsub16 } from "gossipsub16";
import { createLibp2p } from "libp2p";
import { gossipMessageId, msgIdToStrFn } from "../index.js";

export type GossipsubVersion = 16 | 17;
export type Muxer = "mplex" | "yamux";

export interface DataTransform {
  inboundTransform(topic: string, data: Uint8Array): Uint8Array;
  outboundTransform(topic: string, data: Uint8Array): Uint8Array;
}

/** What the tests use of gossipsub 16 and 17 (the same interface in both). */
export interface Pubsub {
  subscribe(topic: string): void;
  publish(topic: string, data: Uint8Array): Promise<unknown>;
  getSubscribers(topic: string): { equals(other: unknown): boolean }[];
  addEventListener(
    type: "gossipsub:message",
    listener: (
      event: CustomEvent<{ msg: { topic: string; data: Uint8Array }; msgId: string }>,
    ) => void,
  ): void;
}

export type Node = Libp2p<{ pubsub: Pubsub }>;

export async function createNode(
  version: GossipsubVersion,
  muxer: Muxer,
  dataTransform: DataTransform,
  fastMsgIdFn?: (msg: { topic?: string; data?: Uint8Array }) => string,
): Promise<Node> {
  const gossipsub = version === 16 ? gossipsub16 : gossipsub17;
  const node = await createLibp2p({
    addresses: { listen: ["/ip4/127.0.0.1/tcp/0"] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [muxer === "mplex" ? mplex({ disconnectThreshold: 50 }) : yamux()],
    services: {
      identify: identify(),
      pubsub: gossipsub({
        globalSignaturePolicy: "StrictNoSign",
        dataTransform,
        msgIdFn: (msg) => gossipMessageId(msg.topic, msg.data),
        msgIdToStrFn,
        ...(fastMsgIdFn === undefined ? {} : { fastMsgIdFn }),
        allowPublishToZeroTopicPeers: false,
        emitSelf: false,
      }),
    },
  });
  return node as unknown as Node;
}

/** Waits until `from` sees the peer `to` subscribed to every topic. */
export async function awaitSubscribed(from: Node, to: unknown, topics: string[]): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (topics.every((t) => from.services.pubsub.getSubscribers(t).some((p) => p.equals(to))))
      return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("subscriptions never arrived");
}

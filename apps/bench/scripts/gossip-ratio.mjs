#!/usr/bin/env node
// `node apps/bench/scripts/gossip-ratio.mjs [rounds]`: @snappykit/p2p's GossipTransform
// inbound against the pattern Lodestar writes by hand (declared length checked,
// Buffer.allocUnsafe, uncompressInto), with the same auto codec, in one process: the two
// alternate batch by batch (ABBA), so a slow spell of the machine hits both. Per gossip
// payload, the median of per-round ratios with its distribution-free interval. The bench's
// gossip-inbound and gossip-transform rows time the same two calls in its forks, but the
// bench pairs codecs, not ops, so this ratio is measured here.
import { createCodec, medianEstimate } from "@snappykit/auto";
import { readUncompressedLength } from "@snappykit/core";
import { getGolden } from "@snappykit/fixtures";
import { MAX_PAYLOAD_SIZE } from "@snappykit/framing";
import { GossipTransform } from "@snappykit/p2p";

const rounds = Number(process.argv[2] ?? 31);
const codec = await createCodec();
const PAYLOADS = [
  "sync-committee-message",
  "single-attestation",
  "attestation",
  "aggregate-and-proof",
  "data-column-sidecar",
  "beacon-block",
];
const transform = new GossipTransform({
  codec,
  bounds: () => ({ minSize: 0, maxSize: MAX_PAYLOAD_SIZE }),
});
const lodestar = (data) => {
  const length = readUncompressedLength(data).length;
  if (length > MAX_PAYLOAD_SIZE) throw new Error("over MAX_PAYLOAD_SIZE");
  const out = Buffer.allocUnsafe(length);
  codec.uncompressInto(data, out);
  return out;
};
const ours = (data) => transform.inboundTransform("topic", data);
let sink = 0;
const batch = (f, wire, n) => {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += f(wire).length;
  return Number(process.hrtime.bigint() - t0);
};
console.log(
  `${codec.library}, ${rounds} rounds, GossipTransform ÷ Lodestar's pattern (median [interval])`,
);
for (const name of PAYLOADS) {
  const wire = getGolden(name)[0];
  const n = Math.max(100, Math.floor(1e6 / wire.length));
  for (let i = 0; i < 5; i++) {
    batch(ours, wire, n);
    batch(lodestar, wire, n);
  }
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    const [a1, b1] = [batch(ours, wire, n), batch(lodestar, wire, n)];
    const [b2, a2] = [batch(lodestar, wire, n), batch(ours, wire, n)];
    ratios.push((a1 + a2) / (b1 + b2));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const e = medianEstimate(ratios);
  const pct = Math.round(e.ci.level * 100);
  console.log(
    `${name.padEnd(24)} ${String(wire.length).padStart(6)} B  ${e.value.toFixed(3)}× [${e.ci.low.toFixed(3)}, ${e.ci.high.toFixed(3)}] (${pct} %)`,
  );
}
if (sink === 0) console.log("");

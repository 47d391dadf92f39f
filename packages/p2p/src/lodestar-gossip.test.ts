// Lodestar 1.44's gossip code as the oracle. `npm pack @lodestar/beacon-node@1.44.0` runs at
// test time (into a cache under the OS's temp dir, never committed); its compiled
// `lib/network/gossip/encoding.js` cannot run here (it imports `@chainsafe/snappy-wasm`, which
// the registry lacks, and newer `@lodestar/*`), so its rules are reproduced below, each checked
// against the file's own lines first: the inbound transform (length checks, then
// `Buffer.alloc(len)` and decode into it), the message id, the fast message id. Bytes and ids
// are compared both ways with this package's, on every gossip fixture.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCodec as createAuto } from "@snappykit/auto";
import type { SnappyCodec } from "@snappykit/core";
import { getPayload } from "@snappykit/fixtures";
import { createCodec as createTs } from "@snappykit/ts";
import { describe, expect, it } from "vitest";
import xxhashFactory from "xxhash-wasm";
import { createFastMsgIdFn, GossipTransform, gossipMessageId } from "./index.js";
import { GOSSIP_FIXTURES } from "./test/helpers.js";

const VERSION = "1.44.0";
const cache = join(tmpdir(), `snappykit-lodestar-beacon-node-${VERSION}`);
const file = join(cache, "package/lib/network/gossip/encoding.js");
if (!existsSync(file)) {
  mkdirSync(cache, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const tarball = execFileSync(
    npm,
    ["pack", `@lodestar/beacon-node@${VERSION}`, "--pack-destination", cache, "--silent"],
    { encoding: "utf8" },
  ).trim();
  execFileSync("tar", ["xzf", join(cache, tarball), "-C", cache]);
}
const source = readFileSync(file, "utf8");

// The lines reproduced below, as the file has them.
const REPRODUCED = [
  "const uncompressedDataLength = snappyWasm.decompress_len(data);",
  "if (uncompressedDataLength > this.maxSizePerMessage) {",
  "if (uncompressedDataLength < sszType.minSize) {",
  "if (uncompressedDataLength > sszType.maxSize) {",
  "const uncompressedData = Buffer.alloc(uncompressedDataLength);",
  "decoder.decompress_into(data, uncompressedData);",
  "vec = [MESSAGE_DOMAIN_VALID_SNAPPY, intToBytes(msg.topic.length, 8), Buffer.from(msg.topic), msg.data];",
  "return digest(Buffer.concat(vec)).subarray(0, 20);",
  "topicSeed = xxhash.h64Raw(Buffer.from(rpcMsg.topic), h64Seed);",
  "return xxhash.h64Raw(rpcMsg.data, topicSeed).toString(16);",
  "const compressedData = Buffer.alloc(snappyWasm.max_compress_len(data.length));",
];

const MAX_SIZE_PER_MESSAGE = 10 * 1024 * 1024;

/** Lodestar's `DataTransformSnappy`, its decoder and encoder being `codec`. */
function lodestarTransform(codec: SnappyCodec, bounds: { minSize: number; maxSize: number }) {
  return {
    inboundTransform(_topic: string, data: Uint8Array): Uint8Array {
      const length = codec.uncompressedLength(data, { maxLength: 0xffff_ffff });
      if (length > MAX_SIZE_PER_MESSAGE) throw Error(`${length} > ${MAX_SIZE_PER_MESSAGE}`);
      if (length < bounds.minSize) throw Error(`${length} < ${bounds.minSize}`);
      if (length > bounds.maxSize) throw Error(`${length} > ${bounds.maxSize}`);
      const out = Buffer.alloc(length);
      codec.uncompressInto!(data, out);
      return out;
    },
    outboundTransform(_topic: string, data: Uint8Array): Uint8Array {
      if (data.length > MAX_SIZE_PER_MESSAGE)
        throw Error(`${data.length} > ${MAX_SIZE_PER_MESSAGE}`);
      const out = Buffer.alloc(codec.maxCompressedLength(data.length));
      return out.subarray(0, codec.compressInto!(data, out));
    },
  };
}

/** Lodestar's `msgIdFn` after phase0: SHA-256 of the spec's preimage (intToBytes is LE). */
function lodestarMsgId(topic: string, data: Uint8Array): Uint8Array {
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(topic.length));
  const vec = [Buffer.of(1, 0, 0, 0), length, Buffer.from(topic), data];
  return createHash("sha256").update(Buffer.concat(vec)).digest().subarray(0, 20);
}

describe(`Lodestar ${VERSION}'s gossip encoding as the oracle`, () => {
  it("reproduces lines the tarball's encoding.js has", () => {
    for (const line of REPRODUCED) expect(source, line).toContain(line);
  });

  it("same bytes and message ids both ways, on every gossip fixture", async () => {
    const [ours, theirs] = [await createTs(), await createAuto()];
    for (const name of GOSSIP_FIXTURES) {
      const ssz = getPayload(name).items[0]!;
      const topic = `/eth2/4a26c58b/${name}/ssz_snappy`;
      const bounds = { minSize: 0, maxSize: ssz.length };
      const transform = new GossipTransform({ codec: ours, bounds: () => bounds });
      const lodestar = lodestarTransform(theirs, bounds);
      // Lodestar -> us and us -> Lodestar.
      const fromThem = transform.inboundTransform(topic, lodestar.outboundTransform(topic, ssz));
      const fromUs = lodestar.inboundTransform(topic, transform.outboundTransform(topic, ssz));
      expect(Buffer.from(fromThem).equals(ssz), name).toBe(true);
      expect(Buffer.from(fromUs).equals(ssz), name).toBe(true);
      expect(Buffer.from(gossipMessageId(topic, fromThem)).toString("hex")).toBe(
        Buffer.from(lodestarMsgId(topic, fromUs)).toString("hex"),
      );
    }
  });

  it("the same fast message id for the same seed", async () => {
    const xxhash = await xxhashFactory();
    const seed = 123_456_789n;
    const fast = await createFastMsgIdFn(seed);
    const codec = await createTs();
    for (const name of GOSSIP_FIXTURES) {
      const data = codec.compress(getPayload(name).items[0]!);
      const topic = `/eth2/4a26c58b/${name}/ssz_snappy`;
      const topicSeed = xxhash.h64Raw(Buffer.from(topic), seed);
      expect(fast({ topic, data })).toBe(xxhash.h64Raw(data, topicSeed).toString(16));
    }
  });
});

// Interop with Lodestar's own req/resp codec: @lodestar/reqresp from the registry (1.5.1, its
// latest there). Its encoders are not in its package's exports map, so they are imported by
// file from the installed package (its index sits next to them). Its libp2p peer (0.41) is
// not needed by these modules. See the README's "Lodestar interop".
import { createCodec } from "@snappykit/auto";
import { concatBytes } from "@snappykit/core";
import { getPayload } from "@snappykit/fixtures";
import { Uint8ArrayList } from "uint8arraylist";
import { describe, expect, it } from "vitest";
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  ResponseError,
} from "./index.js";
import { collect, expectSameBytes } from "./test/helpers.js";

const lib = (file: string) => import(new URL(file, import.meta.resolve("@lodestar/reqresp")).href);
const { responseDecode } = await lib("./encoders/responseDecode.js");
const { responseEncodeError, responseEncodeSuccess } = await lib("./encoders/responseEncode.js");
const { requestEncode } = await lib("./encoders/requestEncode.js");
const { requestDecode } = await lib("./encoders/requestDecode.js");
const { ContextBytesType, EncodedPayloadType } = await lib("./types.js");

const codec = await createCodec();
const blocks = getPayload("blocks-by-range").items;
const DIGEST = Uint8Array.of(0x4a, 0x26, 0xc5, 0x8b);
const BLOCK = { minSize: 100, maxSize: 10 * 1024 * 1024 };
const REQUEST = { minSize: 24, maxSize: 24 };

// The SSZ (de)serialization is not under test: the types pass the bytes through, with the
// bounds Lodestar checks the length prefix against.
const bytesType = (bounds: { minSize: number; maxSize: number }) => ({
  ...bounds,
  serialize: (b: Uint8Array) => b,
  deserialize: (b: Uint8Array) => Uint8Array.from(b),
});
const protocol = {
  method: "beacon_blocks_by_range",
  version: 2,
  encoding: "ssz_snappy",
  contextBytes: {
    type: ContextBytesType.ForkDigest,
    forkFromResponse: () => "fulu",
    forkDigestContext: {
      forkDigest2ForkName: (digest: Uint8Array) => {
        if (!Buffer.from(digest).equals(Buffer.from(DIGEST))) throw new Error("unknown digest");
        return "fulu";
      },
      forkName2ForkDigest: () => DIGEST,
      getForkName: () => "fulu",
    },
  },
  requestType: () => bytesType(REQUEST),
  responseType: () => bytesType(BLOCK),
};
const callbacks = { onFirstHeader() {}, onFirstResponseChunk() {} };
const byDigest = (d: Uint8Array) =>
  Buffer.from(d).equals(Buffer.from(DIGEST)) ? BLOCK : undefined;

/**
 * Our encoder's pieces, one stream item each, as a libp2p sink writes them: Lodestar 1.5.1
 * needs each length prefix within one buffered item (its varint read throws on a split one),
 * so its decoder is fed these, ours the 1-7 byte parts below.
 */
async function* pieces(items: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* items;
}

/** Bytes cut into 1-7 byte parts, three to a Uint8ArrayList, as a libp2p stream yields them. */
async function* wire(bytes: Uint8Array): AsyncGenerator<Uint8ArrayList> {
  let pos = 0;
  for (let i = 0; pos < bytes.length; i++) {
    const list = new Uint8ArrayList();
    for (let k = 0; k < 3 && pos < bytes.length; k++, i++) {
      list.append(bytes.subarray(pos, pos + 1 + (i % 7)));
      pos += 1 + (i % 7);
    }
    yield list;
  }
}

const request = new Uint8Array(24);
new DataView(request.buffer).setBigUint64(0, 1000n, true);
new DataView(request.buffer).setBigUint64(8, 32n, true);
new DataView(request.buffer).setBigUint64(16, 1n, true);

describe("Lodestar @lodestar/reqresp 1.5.1 interop", () => {
  it("our response encoder -> Lodestar's decoder: 32 blocks with context bytes", async () => {
    const ours = await collect(
      encodeResponse(
        blocks.map((ssz) => ({ ssz, context: DIGEST })),
        { codec },
      ),
    );
    const theirs = await collect<Uint8Array>(responseDecode(protocol, callbacks)(pieces(ours)));
    expectSameBytes(theirs, blocks);
  });

  it("Lodestar's response encoder -> our decoder: 32 blocks with context bytes", async () => {
    async function* payloads() {
      for (const bytes of blocks) {
        yield {
          type: EncodedPayloadType.bytes,
          bytes,
          contextBytes: { type: ContextBytesType.ForkDigest, forkSlot: 0 },
        };
      }
    }
    const theirs = concatBytes(
      await collect<Uint8Array>(responseEncodeSuccess(protocol)(payloads())),
    );
    const ours = await collect(
      decodeResponse(wire(theirs), { codec, bounds: byDigest, maxChunks: 32 }),
    );
    expectSameBytes(
      ours.map((c) => c.ssz),
      blocks,
    );
    expect(ours.every((c) => Buffer.from(c.context!).equals(Buffer.from(DIGEST)))).toBe(true);
  });

  it("error responses both ways", async () => {
    const theirs = concatBytes(
      await collect<Uint8Array>(responseEncodeError(protocol, 3, "blocks pruned")),
    );
    const error = await collect(decodeResponse(wire(theirs), { codec, bounds: byDigest })).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ result: 3, text: "blocks pruned" });

    const ours = await collect(
      encodeResponse(
        [
          { ssz: blocks[0]!, context: DIGEST },
          { result: 2, message: "busy" },
        ],
        { codec },
      ),
    );
    const got: Uint8Array[] = [];
    const theirError = await (async () => {
      for await (const b of responseDecode(protocol, callbacks)(pieces(ours)))
        got.push(b as Uint8Array);
    })().catch((e) => e);
    expectSameBytes(got, [blocks[0]!]);
    expect(theirError.status).toBe(2);
    // Lodestar 1.5.1 reads the ErrorMessage's encoded bytes as text (no Snappy decoding) and
    // keeps the printable ones: the message survives inside them.
    expect(theirError.errorMessage).toContain("busy");
  });

  it("requests both ways", async () => {
    const ours = await collect(encodeRequest(request, { codec }));
    expect(await requestDecode(protocol)(pieces(ours))).toEqual(request);
    const theirs = concatBytes(await collect<Uint8Array>(requestEncode(protocol, request)));
    expect(await decodeRequest(wire(theirs), { codec, bounds: REQUEST })).toEqual(request);
  });
});

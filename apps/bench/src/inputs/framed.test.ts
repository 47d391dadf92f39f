import type { SnappyCodec } from "@snappykit/core";
import { decodeSszSnappy, encodeSszSnappy, MAX_PAYLOAD_SIZE } from "@snappykit/p2p";
import { discoverAdapters, loadAdapters } from "@snappykit/workspace";
import { beforeAll, describe, expect, it } from "vitest";
import { FRAMED, prefixLength, varint } from "./framed.js";

let codec: SnappyCodec;
beforeAll(async () => {
  const { loaded } = await loadAdapters(discoverAdapters().filter((e) => e.id === "ts"));
  codec = loaded[0]!.codec;
});

// Over two 64 KiB chunks, compressible and not, so every chunk type shows up.
const ssz = Uint8Array.from({ length: 150_000 }, (_, i) =>
  i < 90_000 ? i % 251 : (i * 2654435761) >>> 24,
);
const bounds = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE };
const cut = (bytes: Uint8Array, n: number) =>
  Array.from({ length: Math.ceil(bytes.length / n) }, (_, i) => bytes.slice(i * n, (i + 1) * n));

describe.each(FRAMED)("$id", (impl) => {
  it("encodes what p2p's ssz_snappy decoder reads back", async () => {
    const pieces = await impl.encode(codec)(ssz);
    const joined = Buffer.concat(pieces.map((p) => Buffer.from(p)));
    expect(decodeSszSnappy(codec, joined, bounds)).toEqual(ssz);
  });

  it.each([1, 7, 65_519])("decodes the reference encoding from %i-byte pieces", async (n) => {
    const encoded = encodeSszSnappy(codec, ssz);
    const at = prefixLength(encoded);
    const out = await impl.decode(codec)(encoded.subarray(0, at), cut(encoded.subarray(at), n));
    expect(Uint8Array.from(out)).toEqual(ssz);
  });

  it(`${impl.crc.startsWith("checked") ? "rejects" : "passes"} a chunk whose CRC is wrong`, async () => {
    const encoded = encodeSszSnappy(codec, ssz);
    const at = prefixLength(encoded);
    const body = encoded.slice(at);
    body[14] = body[14]! ^ 0xff; // the first data chunk's CRC (after the 10-byte identifier chunk)
    const decoded = impl.decode(codec)(encoded.subarray(0, at), [body]);
    if (impl.crc.startsWith("checked")) await expect(decoded).rejects.toThrow();
    else expect(Uint8Array.from(await decoded)).toEqual(ssz);
  });
});

it("varint writes what prefixLength skips", () => {
  for (const n of [0, 127, 128, 300, MAX_PAYLOAD_SIZE]) {
    const v = varint(n);
    expect(prefixLength(Uint8Array.of(...v, 0xff))).toBe(v.length);
    expect(encodeSszSnappy(codec, new Uint8Array(n)).subarray(0, v.length)).toEqual(v);
  }
});

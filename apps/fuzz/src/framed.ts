// The framed (req/resp) implementations a client can install, on hostile `ssz_snappy` input:
// the bench's implementations (@snappykit/bench/framed: ours, Lodestar's pattern, snappy 7.4's
// three framed APIs, snappystream, @chainsafe/snappy-stream), each fed crafted and mutated
// encodings as a stream of pieces, each call judged against the by-the-book ssz_snappy
// decoder (guided/reference.ts) under the same watchdog as every row: a call that never
// settles (a stream waiting for a callback that never comes) is killed at HANG_MS, "hang".
import { mutate, prng } from "@snappykit/conformance/cases";
import type { SnappyCodec } from "@snappykit/core";
import { crc32c, maskChecksum } from "@snappykit/framing";
import { encodeSszSnappy, MAX_PAYLOAD_SIZE } from "@snappykit/p2p";
import { referenceSsz } from "./guided/reference.js";
import type { Expected } from "./outcome.js";
import { orNull } from "./reference.js";

/** The pieces a framed call's stream is cut into: small, so stream machinery is exercised. */
export const FRAMED_PIECE = 7;

const IDENTIFIER = Uint8Array.of(0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59);

/** A varint (unsigned LEB128), as `ssz_snappy` prefixes a payload. */
function varint(n: number): number[] {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n = Math.floor(n / 0x80);
  } while (n > 0);
  return out;
}

/** A chunk: type, 3-byte length, body (`crcOf` data: a CRC is written before it). */
function chunk(type: number, body: Uint8Array, crcOf?: Uint8Array): Uint8Array {
  const crc = crcOf ? 4 : 0;
  const out = new Uint8Array(4 + crc + body.length);
  const length = crc + body.length;
  out.set([type, length & 0xff, (length >> 8) & 0xff, length >> 16]);
  if (crcOf) new DataView(out.buffer).setUint32(4, maskChecksum(crc32c(crcOf)), true);
  out.set(body, 4 + crc);
  return out;
}

const join = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** `ssz_snappy` of `data` in uncompressed chunks, with `extra` chunks before the data. */
function withChunks(data: Uint8Array, ...extra: Uint8Array[]): Uint8Array {
  return join(varint(data.length), IDENTIFIER, ...extra, chunk(0x01, data, data));
}

/** Hostile and valid framed inputs, each a whole `ssz_snappy` encoding, with a label. */
export function craftedFramed(codec: SnappyCodec): { label: string; bytes: Uint8Array }[] {
  const data = Uint8Array.from({ length: 300 }, (_, i) => i % 7);
  const valid = encodeSszSnappy(codec, data);
  const at = varint(data.length).length;
  const badCrc = valid.slice();
  badCrc[at + 14] = badCrc[at + 14]! ^ 0xff; // the first data chunk's CRC
  const big = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 2654435761) >>> 24);
  const dataChunk = chunk(0x01, data, data);
  const cases: [string, Uint8Array][] = [
    ["valid: 300 bytes", valid],
    ["valid: 70,000 bytes, two chunks", encodeSszSnappy(codec, big)],
    ["valid: a padding chunk (0xfe)", withChunks(data, chunk(0xfe, new Uint8Array(3)))],
    ["valid: a skippable chunk (0x80)", withChunks(data, chunk(0x80, Uint8Array.of(1, 2, 3)))],
    ["reserved unskippable chunk (0x02)", withChunks(data, chunk(0x02, new Uint8Array(4)))],
    ["wrong CRC", badCrc],
    ["no stream identifier", join(varint(data.length), dataChunk)],
    [
      "a wrong stream identifier",
      join(
        varint(data.length),
        chunk(0xff, Uint8Array.of(0x73, 0x4e, 0x61, 0x50, 0x70, 0x58)),
        dataChunk,
      ),
    ],
    ["ends inside a chunk header", valid.subarray(0, at + 10 + 2)],
    ["ends inside a chunk body", valid.subarray(0, valid.length - 1)],
    [
      "uncompressed chunk over 65,536 bytes",
      join(varint(70_000), IDENTIFIER, chunk(0x01, new Uint8Array(70_000), new Uint8Array(70_000))),
    ],
    ["declares 10 MiB, sends 300 bytes", join(varint(MAX_PAYLOAD_SIZE), IDENTIFIER, dataChunk)],
    [
      "declares more than MAX_PAYLOAD_SIZE",
      join(varint(MAX_PAYLOAD_SIZE + 1), IDENTIFIER, dataChunk),
    ],
    ["declares 299 bytes, sends 300", join(varint(299), IDENTIFIER, dataChunk)],
    ["another chunk after the payload (the next one, to a stream reader)", join(valid, dataChunk)],
    ["a varint of 11 bytes", join(new Array(10).fill(0x80), [0x01], IDENTIFIER)],
    ["empty input", new Uint8Array(0)],
  ];
  return cases.map(([label, bytes]) => ({ label, bytes }));
}

/** `n` mutations (1–4 bytes overwritten, a quarter also truncated) of valid encodings. */
export function mutatedFramed(codec: SnappyCodec, n: number, seed: number): Uint8Array[] {
  const next = prng(seed);
  const pool = [24, 300, 2_000, 70_000].map((length) =>
    encodeSszSnappy(
      codec,
      Uint8Array.from({ length }, () => Math.floor(next() * 16)),
    ),
  );
  return Array.from({ length: n }, () => mutate(pool[Math.floor(next() * pool.length)]!, next));
}

/**
 * What a client should get from `bytes`: the payload, or null where the spec rejects it. A
 * stream reader (`reader`: ours, Lodestar's) stops at the payload's end, and what follows is
 * the next chunk's; a library is handed the whole input as one chunk's stream.
 */
export function expectedFramed(bytes: Uint8Array, reader: boolean): Expected {
  const bounds = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE, verifyChecksums: true };
  return orNull(() => referenceSsz(bytes, { ...bounds, followedByMore: reader }));
}

/**
 * Read the varint prefix as a client does before handing the rest to a library that reads
 * none: at most 10 bytes, at most MAX_PAYLOAD_SIZE.
 */
export function readPrefix(bytes: Uint8Array): { declared: number; at: number } {
  let declared = 0;
  for (let i = 0; i < 10 && i < bytes.length; i++) {
    declared += (bytes[i]! & 0x7f) * 2 ** (7 * i);
    if (bytes[i]! < 0x80) {
      if (declared > MAX_PAYLOAD_SIZE) throw new Error("declared length over MAX_PAYLOAD_SIZE");
      return { declared, at: i + 1 };
    }
  }
  throw new Error("no varint prefix in 10 bytes");
}

/** `bytes` in pieces of {@link FRAMED_PIECE} bytes, as a stream delivers them. */
export function piecesOf(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += FRAMED_PIECE) out.push(bytes.slice(i, i + FRAMED_PIECE));
  return out;
}

// The framed (req/resp) implementations a consensus client can install, side by side: each
// encodes one response chunk's SSZ bytes as `ssz_snappy` (varint length + Snappy framing
// format) and decodes one from the pieces a stream delivers. The bench times them and
// measures their peak memory (ops.ts, measure/run.ts) and the report answers "which framed
// implementation for req/resp?" from both (render/reqresp.ts).
import { createRequire } from "node:module";
import { Readable } from "node:stream";
import type { SnappyCodec } from "@snappykit/core";
import { ByteReader, crc32c, maskChecksum } from "@snappykit/framing";
import { encodeSszSnappy, MAX_PAYLOAD_SIZE, readSszSnappy } from "@snappykit/p2p";
import {
  Compressor,
  compressStream,
  createCompressStream,
  createUncompressStream,
  Decompressor,
  uncompressStream,
} from "snappy";
import { SnappyStream, UnsnappyStream } from "snappystream";
import { Uint8ArrayList } from "uint8arraylist";

// @chainsafe/snappy-stream loads snappy@6, a nan addon that Bun and Deno cannot open: it is
// required at its first use, so that a fork in those runtimes (bench --runtime bun, ffi-bun)
// can load this file.
const chainsafe = () =>
  createRequire(import.meta.url)(
    "@chainsafe/snappy-stream",
  ) as typeof import("@chainsafe/snappy-stream").default;

/** One response chunk's encoding as written to a stream: the pieces, in order. */
export type Encoded = readonly Uint8Array[];

/** A framed implementation: how it encodes and decodes one response chunk. */
export interface FramedImpl {
  /** Stable id, in op ids (`reqresp-read:<id>`) and the report. */
  readonly id: string;
  /** The package and version, and the calls made. */
  readonly library: string;
  /** Whether the frames' CRC-32C is checked on decode, and where it is not, why. */
  readonly crc: string;
  /** What a decode includes beyond the Snappy decoding: copies, stream machinery. */
  readonly includes: string;
  /**
   * True for a pattern over a snappykit codec (run in the forks of ts, auto, napi); false for
   * a library with its own Snappy, run in the reference codec's forks.
   */
  readonly overCodec: boolean;
  /** Decodes with the codec's `uncompressInto`: runs only over codecs that have it. */
  readonly needsInto?: boolean;
  encode(codec: SnappyCodec): (ssz: Uint8Array) => Promise<Encoded>;
  /**
   * Decode one chunk from `prefix` (its varint length) and `pieces` (the framed bytes after
   * it, as a stream delivers them). The libraries without `ssz_snappy` read no prefix: a
   * client reads it before handing them the stream.
   */
  decode(
    codec: SnappyCodec,
  ): (prefix: Uint8Array, pieces: Iterable<Uint8Array>) => Promise<Uint8Array>;
}

/** The varint (unsigned LEB128) `ssz_snappy` prefixes a chunk with. */
export function varint(n: number): Uint8Array {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n = Math.floor(n / 0x80);
  } while (n > 0);
  return Uint8Array.from(out);
}

/** Where the framed body starts in an `ssz_snappy` encoding: after the varint prefix. */
export function prefixLength(encoded: Uint8Array): number {
  let i = 0;
  while ((encoded[i]! & 0x80) !== 0) i++;
  return i + 1;
}

const ANY_SIZE = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE };

async function* sourceOf(
  prefix: Uint8Array | undefined,
  pieces: Iterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (prefix) yield prefix;
  yield* pieces;
}

/** Everything a Node stream emits, after `pieces` were written into it. */
async function throughNodeStream(
  stream: NodeJS.ReadWriteStream,
  pieces: Iterable<Uint8Array>,
): Promise<Buffer[]> {
  const out: Buffer[] = [];
  Readable.from(pieces, { objectMode: false }).pipe(stream as NodeJS.WritableStream);
  for await (const part of stream as AsyncIterable<Buffer>) out.push(part);
  return out;
}

/** Everything a WHATWG transform emits from `pieces`. */
async function throughWebStream(
  transform: (input: ReadableStream<Uint8Array>) => ReadableStream<Buffer>,
  pieces: Iterable<Uint8Array>,
): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const part of transform(ReadableStream.from(pieces))) out.push(part);
  return out;
}

/** A Node-stream library's encoder and decoder (the decoded parts joined: SSZ needs one array). */
function nodeStreamPair(
  compressor: () => NodeJS.ReadWriteStream,
  decompressor: () => NodeJS.ReadWriteStream,
): Pick<FramedImpl, "encode" | "decode"> {
  return {
    encode: () => async (ssz) => [
      varint(ssz.length),
      ...(await throughNodeStream(compressor(), [ssz])),
    ],
    decode: () => async (_prefix, pieces) =>
      Buffer.concat(await throughNodeStream(decompressor(), pieces)),
  };
}

const MAX_FRAME_DATA = 65_536;

/** A chunk header: type, 3-byte length (with the 4-byte CRC), the masked CRC-32C. */
function frameHeader(type: number, length: number, data: Uint8Array): Uint8Array {
  const h = new Uint8Array(8);
  const view = new DataView(h.buffer);
  view.setUint32(0, type | ((length + 4) << 8), true);
  view.setUint32(4, maskChecksum(crc32c(data)), true);
  return h;
}
const STREAM_IDENTIFIER = Uint8Array.of(0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59);

/**
 * Lodestar's req/resp pattern: `@lodestar/reqresp` 1.44 is not on the npm registry (only 1.4.2
 * and 1.5.1 are; `@lodestar/beacon-node@1.44.0` depends on it), so this reproduces the pattern
 * as the issue describes it: encode each 65,536-byte piece with the codec (an uncompressed
 * chunk when that is not smaller); decode with the prefix read byte by byte, each chunk read
 * by its exact length from a `Uint8ArrayList` (2.4.8, Lodestar's range), its CRC checked,
 * decoded into `Buffer.alloc(n)`, the chunks accumulated in a `Uint8ArrayList` and joined;
 * the declared length over MAX_PAYLOAD_SIZE, a stream without its identifier first, a reserved
 * chunk type and more bytes than declared rejected, as a client must.
 */
const lodestar: Pick<FramedImpl, "encode" | "decode"> = {
  encode: (codec) => async (ssz) => {
    const out = [varint(ssz.length), STREAM_IDENTIFIER];
    for (let at = 0; at < ssz.length; at += MAX_FRAME_DATA) {
      const data = ssz.subarray(at, at + MAX_FRAME_DATA);
      const compressed = codec.compress(data);
      const [type, body] = compressed.length < data.length ? [0x00, compressed] : [0x01, data];
      out.push(frameHeader(type, body.length, data), body);
    }
    return out;
  },
  decode: (codec) => async (prefix, pieces) => {
    const source = sourceOf(prefix, pieces)[Symbol.asyncIterator]();
    const buffered = new Uint8ArrayList();
    const need = async (n: number) => {
      while (buffered.length < n) {
        const next = await source.next();
        if (next.done) throw new Error("source ended early");
        buffered.append(next.value);
      }
    };
    let declared = 0;
    for (let shift = 0; ; shift += 7) {
      await need(1);
      const byte = buffered.get(0);
      buffered.consume(1);
      declared += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) break;
    }
    if (declared > MAX_PAYLOAD_SIZE) throw new Error("declared length over MAX_PAYLOAD_SIZE");
    const decoded = new Uint8ArrayList();
    let identified = false;
    while (decoded.length < declared) {
      await need(4);
      const type = buffered.get(0);
      const length = buffered.get(1) | (buffered.get(2) << 8) | (buffered.get(3) << 16);
      await need(4 + length);
      const frame = buffered.subarray(4, 4 + length);
      buffered.consume(4 + length);
      if (type === 0xff) identified = true;
      if (!identified) throw new Error("stream does not start with the identifier");
      if (type === 0xff || type >= 0x80) continue; // identifier, padding, skippable
      if (type > 0x01) throw new Error(`reserved chunk type ${type}`);
      const crc = new DataView(frame.buffer, frame.byteOffset).getUint32(0, true);
      const body = frame.subarray(4);
      let data = body;
      if (type === 0x00) {
        data = Buffer.alloc(codec.uncompressedLength(body));
        codec.uncompressInto!(body, data);
      }
      if (maskChecksum(crc32c(data)) !== crc) throw new Error("CRC mismatch");
      decoded.append(data);
      if (decoded.length > declared) throw new Error("more bytes than the prefix declares");
    }
    return decoded.subarray();
  },
};

/** Every framed implementation the bench compares, in report order. */
export const FRAMED: readonly FramedImpl[] = [
  {
    id: "snappykit",
    library: "@snappykit/p2p encodeSszSnappy / readSszSnappy(ByteReader)",
    crc: "checked",
    includes:
      "the prefix and every bound checked before allocating; one output array of the declared length, each chunk decoded into it",
    overCodec: true,
    encode: (codec) => async (ssz) => [encodeSszSnappy(codec, ssz)],
    decode: (codec) => (prefix, pieces) =>
      readSszSnappy(codec, new ByteReader(sourceOf(prefix, pieces)), ANY_SIZE),
  },
  {
    id: "lodestar",
    library: "Lodestar 1.44's pattern (uint8arraylist 2.4.8)",
    crc: "checked",
    includes:
      "Buffer.alloc per chunk, chunks kept in a Uint8ArrayList, joined at the end (one copy)",
    overCodec: true,
    needsInto: true,
    ...lodestar,
  },
  {
    id: "snappy-frames",
    library: "snappy 7.4.3 Compressor / Decompressor",
    crc: "checked (Rust snap's FrameDecoder)",
    includes:
      "a worker thread per Decompressor; the decoded parts joined at the end (Buffer.concat)",
    overCodec: false,
    encode: () => async (ssz) => {
      const c = new Compressor();
      return [varint(ssz.length), c.update(ssz), await c.finish()];
    },
    decode: () => async (_prefix, pieces) => {
      const d = new Decompressor();
      const parts: Buffer[] = [];
      for (const piece of pieces) parts.push(d.update(piece));
      parts.push(await d.finish());
      return Buffer.concat(parts);
    },
  },
  {
    id: "snappy-web",
    library: "snappy 7.4.3 compressStream / uncompressStream (WHATWG streams)",
    crc: "checked (Rust snap's FrameDecoder)",
    includes: "a ReadableStream and TransformStream per response; the parts joined at the end",
    overCodec: false,
    encode: () => async (ssz) => [
      varint(ssz.length),
      ...(await throughWebStream(compressStream, [ssz])),
    ],
    decode: () => async (_prefix, pieces) =>
      Buffer.concat(await throughWebStream(uncompressStream, pieces)),
  },
  {
    id: "snappy-node",
    library: "snappy 7.4.3 createCompressStream / createUncompressStream (Node Duplex)",
    crc: "checked (Rust snap's FrameDecoder)",
    includes: "Duplex.fromWeb over the WHATWG streams, Readable.from, pipe; the parts joined",
    overCodec: false,
    ...nodeStreamPair(createCompressStream, createUncompressStream),
  },
  {
    id: "snappystream",
    library: "snappystream 2.1.1 SnappyStream / UnsnappyStream(verifyChecksums: true)",
    crc: "checked only when asked (`new UnsnappyStream(true)`; off by default): this row asks",
    includes: "Node Transform, snappy@7's async uncompress per chunk (thread pool), Buffer.concat",
    overCodec: false,
    ...nodeStreamPair(
      () => new SnappyStream(),
      () => new UnsnappyStream(true),
    ),
  },
  {
    id: "chainsafe-snappy-stream",
    library: "@chainsafe/snappy-stream 5.1.2 createCompressStream / createUncompressStream",
    crc: "not checked (its decoder leaves CRC checking as a TODO)",
    includes: "Node Transform over a BufferList, snappy@6's async uncompress per chunk, concat",
    overCodec: false,
    ...nodeStreamPair(
      () => chainsafe().createCompressStream(),
      () => chainsafe().createUncompressStream(),
    ),
  },
];

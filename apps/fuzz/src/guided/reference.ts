// By-the-book decoders of Google's framing_format.txt and of the consensus specs' ssz_snappy,
// written apart from @snappykit/framing (only the format's numbers are shared) so the guided
// fuzzer can judge its one-shot and streaming decoders. Snappy blocks go through the
// conformance oracle; checksums through a bitwise CRC-32C that shares no table with anyone.
import { oracleUncompress } from "@snappykit/conformance/cases";
import { concat } from "./mutate.js";

/** §4.2: a compressed chunk holds at most 65,536 bytes of data; its body is bounded below. */
const MAX_BLOCK = 65536;
// CRC + the longest valid block of 65,536 bytes: a 5-byte preamble and at most 6 bytes
// per output byte (a 1-byte literal in its 4-byte length form).
const MAX_COMPRESSED_BODY = 4 + 5 + 6 * MAX_BLOCK;
const IDENTIFIER = [0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]; // "sNaPpY"
/** consensus-specs p2p-interface: MAX_PAYLOAD_SIZE. */
const MAX_PAYLOAD_SIZE = 10 * 1024 * 1024;

/** CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), one bit at a time. */
export function crc32cBitwise(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** §3: the checksum is stored masked. */
function masked(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}

/** One chunk read at `pos`: its type and body, or an Error when the input ends inside it. */
function chunkAt(bytes: Uint8Array, pos: number): { type: number; body: Uint8Array; end: number } {
  if (bytes.length - pos < 4) throw new Error("input ends inside a chunk header");
  const type = bytes[pos]!;
  const length = bytes[pos + 1]! + bytes[pos + 2]! * 256 + bytes[pos + 3]! * 65536;
  const end = pos + 4 + length;
  if (end > bytes.length) throw new Error("input ends inside a chunk body");
  return { type, body: bytes.subarray(pos + 4, end), end };
}

/**
 * A chunk's data (`undefined` for identifier, padding and skippable chunks), or an Error
 * for any chunk the format forbids.
 */
function chunkData(
  type: number,
  body: Uint8Array,
  first: boolean,
  verify: boolean,
): Uint8Array | undefined {
  // §1: the stream starts with the stream identifier.
  if (first && type !== 0xff) throw new Error("first chunk is not the stream identifier");
  if (type === 0xff) {
    // §4.1
    if (body.length !== 6 || IDENTIFIER.some((b, i) => body[i] !== b)) {
      throw new Error("bad stream identifier");
    }
    return undefined;
  }
  if (type >= 0x80) return undefined; // §4.4 padding, §4.6 reserved skippable
  if (type >= 0x02) throw new Error("reserved unskippable chunk"); // §4.5
  if (body.length < 4) throw new Error("data chunk without room for its checksum");
  let data: Uint8Array;
  if (type === 0x00) {
    // §4.2
    if (body.length > MAX_COMPRESSED_BODY) throw new Error("compressed chunk too long");
    data = oracleUncompress(body.subarray(4));
  } else {
    // §4.3
    data = body.subarray(4);
  }
  if (data.length > MAX_BLOCK) throw new Error("chunk data over 65,536 bytes");
  const stored = body[0]! + body[1]! * 256 + body[2]! * 65536 + body[3]! * 16777216;
  if (verify && masked(crc32cBitwise(data)) !== stored) throw new Error("checksum mismatch");
  return data;
}

/**
 * Decode a whole framed stream (an empty one is empty); throws an Error where the format
 * rejects, or where it decodes to more than `maxLength` bytes (snappykit's limit, default
 * 256 MiB).
 */
export function referenceFramed(
  bytes: Uint8Array,
  verify: boolean,
  maxLength = 256 * 1024 * 1024,
): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let pos = 0; pos < bytes.length; ) {
    const { type, body, end } = chunkAt(bytes, pos);
    const data = chunkData(type, body, pos === 0, verify);
    if (data) {
      parts.push(data);
      total += data.length;
      if (total > maxLength) throw new Error("decodes to more than maxLength");
    }
    pos = end;
  }
  return concat(...parts);
}

/** The bounds the ssz_snappy reference judges against. */
export interface SszBounds {
  minSize: number;
  maxSize: number;
  verifyChecksums: boolean;
  /**
   * Bytes after the payload are the next chunk of a stream, left for the next read (a stream
   * reader's view), not an error (a whole-input decoder's).
   */
  followedByMore?: boolean;
}

/**
 * Decode one ssz_snappy payload (p2p-interface.md, "Encoding strategies"): a minimally
 * encoded unsigned varint of at most 10 bytes giving n within the bounds and MAX_PAYLOAD_SIZE,
 * then a framed stream that yields exactly n bytes within max_compressed_len(n) framed bytes,
 * and nothing after it. An empty payload's framed stream is empty or the identifier alone.
 */
export function referenceSsz(bytes: Uint8Array, bounds: SszBounds): Uint8Array {
  let n = 0;
  let pos = 0;
  for (let i = 0; ; i++) {
    if (i >= 10) throw new Error("varint longer than 10 bytes");
    if (pos >= bytes.length) throw new Error("input ends inside the varint");
    const byte = bytes[pos++]!;
    n += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) {
      if (byte === 0 && i > 0) throw new Error("varint not minimal");
      break;
    }
  }
  if (n > Math.min(bounds.maxSize, MAX_PAYLOAD_SIZE)) throw new Error("length over the bound");
  if (n < bounds.minSize) throw new Error("length under the bound");
  const framedStart = pos;
  const budget = 32 + n + Math.floor(n / 6);
  const parts: Uint8Array[] = [];
  let produced = 0;
  let first = true;
  // The framed stream ends with the chunk that completes n bytes (for n = 0: with the
  // identifier, if there is one at all); whatever follows is trailing data.
  while (produced < n || (n === 0 && first && pos < bytes.length)) {
    const { type, body, end } = chunkAt(bytes, pos);
    if (end - framedStart > budget) throw new Error("framed bytes over max_compressed_len(n)");
    const data = chunkData(type, body, first, bounds.verifyChecksums);
    first = false;
    pos = end;
    if (!data) continue;
    produced += data.length;
    if (produced > n) throw new Error("payload longer than its length prefix");
    parts.push(data);
  }
  if (pos !== bytes.length && !bounds.followedByMore) {
    throw new Error("trailing bytes after the payload");
  }
  return concat(...parts);
}

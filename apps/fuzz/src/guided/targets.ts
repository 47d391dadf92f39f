// The guided fuzz targets. Each turns one input into calls on the code under test and throws a
// Finding when they disagree with the reference or with each other, or break the contract
// (anything but a SnappyError). Coverage is read from the scripts `scope` matches.
import {
  firstDifference,
  hostileCases,
  literalStream,
  oracleUncompress,
  prng,
  randomBytes,
  validStreams,
} from "@snappykit/conformance/cases";
import { isSnappyError, type SnappyCodec, validateCompressed } from "@snappykit/core";
import { loadPayloads } from "@snappykit/fixtures";
import { decodeFramed, encodeFramed, FrameDecoder, STREAM_IDENTIFIER } from "@snappykit/framing";
import {
  decodeSszSnappy,
  decodeSszSnappySequence,
  encodeSszSnappy,
  MAX_PAYLOAD_SIZE,
} from "@snappykit/p2p";
import { legalFormSeeds, poolPlaintexts } from "../inputs.js";
import { toHex } from "../outcome.js";
import { orNull } from "../reference.js";
import { concat } from "./mutate.js";
import { referenceFramed, referenceSsz, type SszBounds } from "./reference.js";

/** A disagreement or contract breach: the input that caused it is a finding. */
export class Finding extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
    this.name = "Finding";
  }
}

/** One execution: returns normally, or throws a {@link Finding}. */
export type Execute = (input: Uint8Array) => void | Promise<void>;

export interface GuidedTarget {
  readonly name: string;
  readonly description: string;
  /** URLs of the scripts whose block coverage guides the search. */
  readonly scope: RegExp;
  /** Longest input tried. */
  readonly maxLength: number;
  /** Tokens the mutator inserts: the formats' magic bytes and edge values. */
  readonly dictionary: readonly Uint8Array[];
  /** Starting inputs built from the fixtures and the conformance cases. */
  seeds(): Promise<Uint8Array[]>;
  load(): Promise<Execute>;
}

type Result = { ok: true; bytes: Uint8Array } | { ok: false; code: string; message: string };

/** Run `fn`; a non-SnappyError throw is a contract breach and becomes a Finding. */
function outcome(who: string, fn: () => Uint8Array): Result {
  try {
    return { ok: true, bytes: fn() };
  } catch (error) {
    return failed(who, error);
  }
}

function failed(who: string, error: unknown): Result {
  if (error instanceof Finding) throw error;
  if (!isSnappyError(error)) {
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Finding("non-SnappyError", `${who} threw ${what}`);
  }
  return { ok: false, code: error.code, message: error.message };
}

/** Throw a Finding when `actual` does not match the reference `expected`. */
function judge(who: string, actual: Result, expected: Uint8Array | null): void {
  if (actual.ok && expected === null) {
    throw new Finding(
      "silent-accept",
      `${who} returned ${actual.bytes.length} bytes; the reference rejects`,
    );
  }
  if (!actual.ok && expected !== null) {
    throw new Finding(
      "false-reject",
      `${who} threw ${actual.code} (${actual.message}); the reference decodes ${expected.length} bytes`,
    );
  }
  if (actual.ok && expected !== null && firstDifference(actual.bytes, expected) !== -1) {
    throw new Finding(
      "wrong-bytes",
      `${who} returned ${actual.bytes.length} bytes, reference ${expected.length}`,
    );
  }
}

/** Two decoders of the same stream must fail with the same code. */
function sameCode(a: string, ra: Result, b: string, rb: Result): void {
  if (!ra.ok && !rb.ok && ra.code !== rb.code) {
    throw new Finding("code-mismatch", `${a} threw ${ra.code}, ${b} threw ${rb.code}`);
  }
}

/**
 * Cut `bytes` into pieces, deterministically from `seed`: seed 0 is one piece; others mix
 * 1–4-byte slivers (splitting chunk headers and varints) with longer runs.
 */
export function pieces(bytes: Uint8Array, seed: number): Uint8Array[] {
  if (seed === 0) return [bytes];
  const next = prng(seed);
  const out: Uint8Array[] = [];
  for (let pos = 0; pos < bytes.length; ) {
    const len =
      next() < 0.5
        ? 1 + Math.floor(next() * 4)
        : 1 + Math.floor(next() * 2 ** (2 + Math.floor(next() * 9)));
    out.push(bytes.subarray(pos, pos + len));
    pos += len;
  }
  // An empty write between pieces must change nothing.
  if (seed % 5 === 0) out.splice(out.length >> 1, 0, new Uint8Array(0));
  return out;
}

/** Fixture plaintexts cut small, so the streams built from them stay under `max` bytes. */
function plaintexts(max: number): Uint8Array[] {
  const items = loadPayloads().flatMap((p) => p.items.slice(0, 4));
  return poolPlaintexts(items, 3).filter((p) => p.length <= max);
}

const u8 = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => new TextEncoder().encode(text);

/** Chunk headers, the identifier and varint edges: what the framing formats parse. */
const FRAMING_TOKENS = [
  STREAM_IDENTIFIER,
  u8(0x00, 0x08, 0x00, 0x00),
  u8(0x01, 0x08, 0x00, 0x00),
  u8(0xfe, 0x00, 0x00, 0x00),
  u8(0x80, 0x01, 0x00, 0x00),
  u8(0x02, 0x00, 0x00, 0x00),
  u8(0x00, 0xce, 0x2a, 0x01), // 76,494: the longest compressed body an encoder writes
  u8(0x00, 0x09, 0x00, 0x06), // 393,225: the longest compressed body accepted
  u8(0x01, 0x04, 0x00, 0x01), // 65,540: the longest uncompressed body
  u8(0x80, 0x80, 0x04), // varint 65,536
  u8(0x80, 0x80, 0x80, 0x05), // varint 10 MiB
  u8(0xff, 0xff, 0xff, 0xff, 0x0f),
];

const SNAPPY_TOKENS = [
  u8(0x01, 0x00), // copy-1, offset 0
  u8(0xf0),
  u8(0xf4),
  u8(0xf8),
  u8(0xfc),
  u8(0xfe, 0x01, 0x00), // copy-2, length 64, offset 1
  u8(0xff, 0x01, 0x00, 0x00, 0x00),
  u8(0x80, 0x80, 0x04),
  u8(0xff, 0xff, 0xff, 0xff, 0x0f),
  ascii("abcd"),
];

// Decoding code only: the encoders (ts compress, FrameEncoder) run to build seeds, never on
// the fuzzed input, and would only add blocks no input can reach.
const TS_SCOPE = /\/packages\/(ts\/dist\/(?!compress)|core\/dist\/|conformance\/dist\/oracle\.js$)/;
const FRAMING_SCOPE = /\/packages\/(framing\/dist\/(?!encode)|ts\/dist\/(?!compress)|core\/dist\/)/;
const SSZ_SCOPE =
  /\/packages\/(p2p\/dist\/ssz-snappy|framing\/dist\/(?!encode)|ts\/dist\/(?!compress)|core\/dist\/)/;

async function tsCodec(): Promise<SnappyCodec> {
  const { createCodec } = await import("@snappykit/ts");
  return createCodec();
}

/** `@snappykit/ts` uncompress (guarded and raw) and napi's, against the oracle and core's validator. */
export const tsUncompress: GuidedTarget = {
  name: "ts-uncompress",
  description:
    "@snappykit/ts uncompress (createCodec and createRaw) and napi's (snappy@7), each against the conformance oracle; @snappykit/core validateCompressed must agree with the oracle on accept/reject",
  scope: TS_SCOPE,
  // Over 4,096 bytes: the ts decoder reads inputs that long in place instead of copying
  // them to its scratch buffer, a path of its own.
  maxLength: 8192,
  dictionary: SNAPPY_TOKENS,
  async seeds() {
    const ts = await tsCodec();
    // Incompressible data makes long literals (≥ 256 bytes take the decoder's copy path);
    // the hostile cases start the search at the edges.
    const random = [255, 256, 1000, 4100, 6000].map((n) => randomBytes(n, n));
    return [
      ...validStreams.map((v) => v.bytes).filter((b) => b.length <= 8192),
      ...legalFormSeeds(128, 8192).map((c) => c.stream),
      ...hostileCases.map((c) => c.bytes).filter((b) => b.length <= 8192),
      ...random.map((r) => literalStream(r)),
      ...[...plaintexts(4000), ...random].map((p) => ts.compress(p)),
    ];
  },
  async load() {
    const decoders = [
      ["ts", await tsCodec()],
      ["ts (raw)", await (await import("@snappykit/ts/raw")).createRaw()],
      ["napi", await (await import("@snappykit/napi")).createCodec()],
    ] as const;
    return (input) => {
      const expected = orNull(() => oracleUncompress(input));
      for (const [who, codec] of decoders) {
        const actual = outcome(who, () => codec.uncompress(input));
        judge(who, actual, expected);
      }
      const valid = outcome("validateCompressed", () => {
        validateCompressed(input);
        return input;
      }).ok;
      if (valid !== (expected !== null)) {
        throw new Finding(
          "validator-disagrees",
          `validateCompressed ${valid ? "accepts" : "rejects"} what the oracle ${valid ? "rejects" : "accepts"}`,
        );
      }
    };
  },
};

/** The `maxLength` bits 5–6 of a framed input's control byte choose. */
const FRAMED_LIMITS = [undefined, 0, 100, 70_000] as const;

/** Byte 0: bit 7 set = skip checksums; bits 5–6 the maxLength; bits 0–4 how the stream is cut. */
function framedControl(control: number) {
  return {
    verifyChecksums: (control & 0x80) === 0,
    maxLength: FRAMED_LIMITS[(control >> 5) & 3],
    split: control & 0x1f,
  };
}

/** `decodeFramed` and `FrameDecoder` fed in pieces, against the reference framed decoder. */
export const framed: GuidedTarget = {
  name: "framed",
  description:
    "@snappykit/framing decodeFramed and FrameDecoder (fed the stream cut into pieces) over @snappykit/ts, against a by-the-book framing decoder; the two must also fail with the same code. Input byte 0: bit 7 skips checksums, bits 5–6 choose maxLength (default, 0, 100, 70,000), bits 0–4 the cut",
  scope: FRAMING_SCOPE,
  maxLength: 4097,
  dictionary: [...FRAMING_TOKENS, ...SNAPPY_TOKENS],
  async seeds() {
    const ts = await tsCodec();
    const streams = [
      new Uint8Array(0),
      STREAM_IDENTIFIER,
      ...plaintexts(3000).map((p) => encodeFramed(ts, p)),
    ].filter((s) => s.length <= 4096);
    return streams.flatMap((s, i) => [concat(u8(0), s), concat(u8(0x80 | (1 + (i % 31))), s)]);
  },
  async load() {
    const codec = await tsCodec();
    return (input) => {
      const { verifyChecksums, maxLength, split } = framedControl(input[0] ?? 0);
      const options =
        maxLength === undefined ? { verifyChecksums } : { verifyChecksums, maxLength };
      const stream = input.subarray(1);
      const expected = orNull(() => referenceFramed(stream, verifyChecksums, maxLength));
      const oneShot = outcome("decodeFramed", () => decodeFramed(codec, stream, options));
      const streamed = outcome("FrameDecoder", () => {
        const decoder = new FrameDecoder(codec, options);
        const out: Uint8Array[] = [];
        for (const piece of pieces(stream, split))
          for (const data of decoder.write(piece)) out.push(data);
        decoder.end();
        return concat(...out);
      });
      judge("decodeFramed", oneShot, expected);
      judge("FrameDecoder", streamed, expected);
      sameCode("decodeFramed", oneShot, "FrameDecoder", streamed);
    };
  },
};

/** Bounds chosen by bits 4–6 of the control byte: the spec's cap, and fixed or tiny types. */
const SSZ_BOUNDS: readonly [number, number][] = [
  [0, MAX_PAYLOAD_SIZE],
  [0, 0],
  [0, 1],
  [16, 16],
  [0, 100],
  [84, 1000],
  [0, 4096],
  [0, 65536],
];

function sszControl(control: number): SszBounds & { split: number } {
  const [minSize, maxSize] = SSZ_BOUNDS[(control >> 4) & 7]!;
  return { minSize, maxSize, verifyChecksums: (control & 0x80) === 0, split: control & 0x0f };
}

async function* from(list: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const piece of list) yield piece;
}

/** `decodeSszSnappy` on a buffer and on a stream in pieces, against the reference. */
export const sszSnappy: GuidedTarget = {
  name: "ssz-snappy",
  description:
    "@snappykit/p2p decodeSszSnappy on a Uint8Array and on an async stream of pieces (the streaming reader), and decodeSszSnappySequence, over @snappykit/ts, against a by-the-book ssz_snappy decoder; both paths must fail with the same code. Input byte 0: bit 7 skips checksums, bits 4–6 choose the bounds, bits 0–3 the cut",
  scope: SSZ_SCOPE,
  maxLength: 4097,
  dictionary: [...FRAMING_TOKENS, ...SNAPPY_TOKENS],
  async seeds() {
    const ts = await tsCodec();
    const payloads = [new Uint8Array(0), ...plaintexts(3000)].map((p) => encodeSszSnappy(ts, p));
    // The control byte alone: an empty input, which the 32-minute run never produced.
    return [
      u8(0),
      ...payloads
        .filter((s) => s.length <= 4096)
        .flatMap((s, i) => [concat(u8(0), s), concat(u8(0x80 | (1 + (i % 15))), s)]),
    ];
  },
  async load() {
    const codec = await tsCodec();
    return async (input) => {
      const { split, ...bounds } = sszControl(input[0] ?? 0);
      const stream = input.subarray(1);
      const expected = orNull(() => referenceSsz(stream, bounds));
      const sync = outcome("decodeSszSnappy(bytes)", () => decodeSszSnappy(codec, stream, bounds));
      const streamed = await decodeSszSnappy(codec, from(pieces(stream, split)), bounds).then(
        (bytes): Result => ({ ok: true, bytes }),
        (error: unknown) => failed("decodeSszSnappy(stream)", error),
      );
      judge("decodeSszSnappy(bytes)", sync, expected);
      judge("decodeSszSnappy(stream)", streamed, expected);
      sameCode("decodeSszSnappy(bytes)", sync, "decodeSszSnappy(stream)", streamed);
      if (sync.ok) {
        const sequence = outcome("decodeSszSnappySequence", () => {
          const items = decodeSszSnappySequence(codec, stream, bounds);
          if (items.length !== 1)
            throw new Finding("sequence", `sequence of one payload gave ${items.length} items`);
          return items[0]!;
        });
        judge("decodeSszSnappySequence", sequence, sync.bytes);
      }
    };
  },
};

export const GUIDED_TARGETS: readonly GuidedTarget[] = [tsUncompress, framed, sszSnappy];

/** A short hex preview for messages. */
export const preview = (bytes: Uint8Array) => toHex(bytes, 64);

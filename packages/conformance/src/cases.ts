// The crafted inputs of the suite as plain data (no vitest), so the fuzzer and others can
// replay them: hostile streams every codec must reject, and valid hand-built streams that use
// element forms an encoder may never emit but every decoder must read.
import { literal, literalStream, randomBytes, varint } from "./corpus.js";

/** A stream every codec must reject with a `SnappyError`. */
export interface HostileCase {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Passed as `maxLength`; the case is valid without it and must fail only because of it. */
  readonly maxLength?: number;
  /**
   * The `SnappyError` codes the case may raise. A bomb is refused either way: by the
   * default `maxLength` or as a length its body cannot produce.
   */
  readonly codes: readonly ("CORRUPT_INPUT" | "LENGTH_LIMIT")[];
}

/** A valid stream and what it decodes to. */
export interface ValidStream {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly expected: Uint8Array;
}

const ABCD = [0x61, 0x62, 0x63, 0x64];
const bytes = (...parts: (number | number[])[]) => Uint8Array.from(parts.flat());
const GiB = 2 ** 30;
const CORRUPT = ["CORRUPT_INPUT"] as const;
const BOMB = ["CORRUPT_INPUT", "LENGTH_LIMIT"] as const;

/** A 1,000-byte random payload stored as literals, the base of the length-mismatch cases. */
const base = randomBytes(1000, 7);
const baseStream = literalStream(base);
const withPreamble = (declared: number) =>
  bytes(varint(declared), Array.from(baseStream.subarray(varint(1000).length)));

/** Hostile and malformed inputs: each must throw `SnappyError` with one of `codes`. */
export const hostileCases: readonly HostileCase[] = [
  { name: "empty input", bytes: bytes(), codes: CORRUPT },
  {
    name: "truncated stream (first half of a valid one)",
    bytes: baseStream.slice(0, baseStream.length >> 1),
    codes: CORRUPT,
  },
  { name: "truncated varint (continuation bit, then nothing)", bytes: bytes(0x80), codes: CORRUPT },
  { name: "truncated 4-byte varint", bytes: bytes(0xff, 0xff, 0xff, 0xff), codes: CORRUPT },
  {
    name: "overlong varint (6 bytes, never terminates in 5)",
    bytes: bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00),
    codes: CORRUPT,
  },
  {
    name: "varint larger than 32 bits",
    bytes: bytes(0xff, 0xff, 0xff, 0xff, 0x1f, 0x00, 0x61),
    codes: CORRUPT,
  },
  {
    name: "preamble claims 4 GiB - 1 with a 5-byte body",
    bytes: bytes(varint(4 * GiB - 1), 0x10, ABCD),
    codes: BOMB,
  },
  {
    name: "preamble claims 2 GiB with a 5-byte body",
    bytes: bytes(varint(2 * GiB), 0x10, ABCD),
    codes: BOMB,
  },
  {
    name: "preamble claims 256 MiB with a 5-byte body",
    bytes: bytes(varint(256 * 2 ** 20), 0x10, ABCD),
    codes: BOMB,
  },
  {
    name: "snappyjs's 6-byte hang: 4-byte literal length of 4 GiB",
    bytes: bytes(0x01, 0xfc, 0x00, 0x00, 0xff, 0xff),
    codes: CORRUPT,
  },
  { name: "copy offset 0", bytes: bytes(8, literal(ABCD), 0x01, 0x00), codes: CORRUPT },
  {
    name: "copy offset beyond the bytes produced",
    bytes: bytes(8, literal(ABCD), 0x01, 0x05),
    codes: CORRUPT,
  },
  {
    name: "4-byte-offset copy far beyond the output",
    bytes: bytes(8, literal(ABCD), 0x0f, 0x00, 0x00, 0x00, 0x01),
    codes: CORRUPT,
  },
  { name: "copy before any literal", bytes: bytes(4, 0x01, 0x01), codes: CORRUPT },
  {
    name: "output longer than the preamble",
    bytes: bytes(3, literal(ABCD)),
    codes: CORRUPT,
  },
  {
    name: "output shorter than the preamble",
    bytes: bytes(5, literal(ABCD)),
    codes: CORRUPT,
  },
  {
    name: "preamble 10% larger than a 1,000-byte body (stale-memory bait)",
    bytes: withPreamble(1100),
    codes: CORRUPT,
  },
  { name: "preamble one byte short of the body", bytes: withPreamble(999), codes: CORRUPT },
  {
    name: "literal running past the end",
    bytes: bytes(10, 9 << 2, 0x61, 0x62, 0x63),
    codes: CORRUPT,
  },
  {
    name: "literal length bytes missing",
    bytes: bytes(100, 61 << 2, 0x63),
    codes: CORRUPT,
  },
  {
    name: "copy tag missing its offset byte",
    bytes: bytes(8, literal(ABCD), 0x01),
    codes: CORRUPT,
  },
  {
    name: "valid 1,000-byte stream over maxLength 999",
    bytes: baseStream,
    maxLength: 999,
    codes: ["LENGTH_LIMIT"],
  },
  {
    name: "valid empty-ish stream over maxLength 0",
    bytes: bytes(1, literal([0x61])),
    maxLength: 0,
    codes: ["LENGTH_LIMIT"],
  },
];

/**
 * Valid streams built by hand with every element form: short and long literals (1–4
 * length bytes), copies with 1-, 2- and 4-byte offsets, overlapping copies (run-length
 * style), and a maximal 64-byte copy. Decoders must read them even if their encoder never
 * writes them.
 */
export const validStreams: readonly ValidStream[] = (() => {
  const abcd = Uint8Array.from(ABCD);
  const longText = randomBytes(70000, 11);
  const rle = new Uint8Array(1 + 64 + 11);
  rle.fill(0x7a);
  return [
    { name: "empty stream", bytes: bytes(0), expected: new Uint8Array(0) },
    {
      name: "copy-1 (len 4, offset 4) after a literal",
      bytes: bytes(8, literal(ABCD), 0x01, 4),
      expected: Uint8Array.of(...ABCD, ...ABCD),
    },
    {
      name: "copy-2 and copy-4 forms",
      bytes: bytes(13, literal(ABCD), (3 << 2) | 2, 4, 0, (4 << 2) | 3, 8, 0, 0, 0),
      expected: Uint8Array.of(...ABCD, ...ABCD, ...ABCD, 0x61),
    },
    {
      name: "overlapping copies (offset 1, run-length style) incl. a 64-byte copy",
      bytes: bytes(varint(rle.length), literal([0x7a]), (63 << 2) | 2, 1, 0, (7 << 2) | 1, 1),
      expected: rle,
    },
    {
      name: "literal with 2 length bytes (70,000 bytes, one element)",
      bytes: bytes(varint(longText.length), literal(longText)),
      expected: longText,
    },
    {
      name: "literal with 1 length byte written with 4 (non-minimal)",
      bytes: bytes(4, 63 << 2, 3, 0, 0, 0, ABCD),
      expected: abcd,
    },
  ];
})();

import { copy2, copy4, literal } from "@snappykit/conformance";
import { encodeUncompressedLength, isSnappyError, type SnappyErrorCode } from "@snappykit/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { uncompress, uncompressInto } from "./decompress.js";
import { kernel } from "./kernel.js";
import { windows } from "./windows.js";

const { DIRECT, LONG_LITERAL, SMALL_OUTPUT, SPARSE_IN } = windows();

import {
  firstDifference,
  oracleCompress,
  oracleUncompress,
  randomBytes,
  structured,
} from "./test-support/inputs.js";

const ABCD = [0x61, 0x62, 0x63, 0x64];
const bytes = (...parts: (number | number[] | Uint8Array)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "number" ? [p] : Array.from(p))));
const varint = (n: number) => encodeUncompressedLength(n);

function rejects(
  input: Uint8Array,
  code: SnappyErrorCode,
  message: RegExp,
  maxLength?: number,
): void {
  try {
    uncompress(input, maxLength === undefined ? undefined : { maxLength });
  } catch (error) {
    expect(isSnappyError(error, code), String(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error(`accepted ${Array.from(input.subarray(0, 16))}`);
}

describe("uncompress: valid streams", () => {
  it("copies NaN bit patterns unchanged, also once optimised", () => {
    // Signalling and quiet NaNs with payloads, in repeated 24-byte records, through the fast
    // path's literals and copies: a decoder that moved them as float64s would see an engine
    // quiet them (Chromium 156's optimised code did).
    const view = new DataView(new ArrayBuffer(48 * 1024));
    for (let at = 0; at < view.byteLength; at += 24) {
      const k = (at / 24) % 7;
      view.setUint32(at, k, true);
      view.setUint32(at + 4, 0x7ff00000 | k, true);
      view.setUint32(at + 8, 0xffffffff, true);
      view.setUint32(at + 12, 0x7ff7ffff, true);
      view.setUint32(at + 16, 0xbeef0000 | k, true);
      view.setUint32(at + 20, 0xfff8dead, true);
    }
    const data = new Uint8Array(view.buffer);
    const stream = compress(data);
    for (let round = 0; round < 300; round++) {
      const out = uncompress(stream);
      if (firstDifference(out, data) !== -1) expect(firstDifference(out, data)).toBe(-1);
    }
  });

  it("reads every element form", () => {
    // copy-1 (len 4, offset 4), copy-2 (len 4, offset 4), copy-4 (len 5, offset 8).
    const stream = bytes(17, 0x0c, ABCD, 0x01, 4, (3 << 2) | 2, 4, 0, (4 << 2) | 3, 8, 0, 0, 0);
    expect(Array.from(uncompress(stream))).toEqual([...ABCD, ...ABCD, ...ABCD, ...ABCD, 0x61]);
    // Literal lengths in 1, 2, 3 and 4 extra bytes (non-minimal encodings are valid).
    expect(Array.from(uncompress(bytes(4, 60 << 2, 3, ABCD)))).toEqual(ABCD);
    expect(Array.from(uncompress(bytes(4, 61 << 2, 3, 0, ABCD)))).toEqual(ABCD);
    expect(Array.from(uncompress(bytes(4, 62 << 2, 3, 0, 0, ABCD)))).toEqual(ABCD);
    expect(Array.from(uncompress(bytes(4, 63 << 2, 3, 0, 0, 0, ABCD)))).toEqual(ABCD);
  });

  it("repeats overlapping copies (offset < length) and copies long runs", () => {
    // 'z', then a 64-byte copy at offset 1, then an 11-byte copy-1 at offset 1.
    const rle = uncompress(bytes(76, 0, 0x7a, (63 << 2) | 2, 1, 0, (7 << 2) | 1, 1));
    expect(rle).toEqual(new Uint8Array(76).fill(0x7a));
    // Overlap with period 3 and a non-overlapping 64-byte copy (the copyWithin path).
    const data = randomBytes(100, 1);
    const out = uncompress(
      bytes(varint(100 + 64 + 20), 0xf0, 99, data, (63 << 2) | 2, 100, 0, (19 << 2) | 2, 3, 0),
    );
    expect(Array.from(out.subarray(0, 100))).toEqual(Array.from(data));
    expect(Array.from(out.subarray(100, 164))).toEqual(Array.from(data.subarray(0, 64)));
    for (let i = 164; i < 184; i++) expect(out[i]).toBe(out[i - 3]);
  });

  it("decodes Buffers and views with a byteOffset", () => {
    const input = structured(3000, 3);
    const stream = compress(input);
    const padded = new Uint8Array(stream.length + 10);
    padded.set(stream, 7);
    expect(firstDifference(uncompress(padded.subarray(7, 7 + stream.length)), input)).toBe(-1);
    expect(firstDifference(uncompress(Buffer.from(stream)), input)).toBe(-1);
  });

  it("decodes one literal as long as the whole output around the window sizes, ±1", () => {
    // A 4096-byte output held in one literal (what ts and snappy@7 write for 4096
    // incompressible bytes) once threw a TypeError: outputs up to SMALL_OUTPUT had no
    // destination array, and a literal of DIRECT bytes went straight to it.
    for (const size of [SMALL_OUTPUT, DIRECT, SPARSE_IN, LONG_LITERAL].flatMap((n) => [
      n - 1,
      n,
      n + 1,
    ])) {
      const data = randomBytes(size, size);
      const stream = Uint8Array.from([...varint(size), ...literal(data)]);
      expect(firstDifference(uncompress(stream), data), `${size} B`).toBe(-1);
      expect(firstDifference(uncompress(compress(data)), data), `${size} B`).toBe(-1);
      const out = new Uint8Array(size);
      expect(uncompressInto(stream, out)).toBe(size);
      expect(firstDifference(out, data), `${size} B into`).toBe(-1);
      // The same literal, then one byte more than declared: rejected as corrupt, not a crash.
      rejects(Uint8Array.from([...stream, 0]), "CORRUPT_INPUT", /tag at byte/);
      const short = Uint8Array.from([...varint(size + 1), ...literal(data), 0x00]);
      rejects(short, "CORRUPT_INPUT", /runs past the end of the input/);
    }
  });

  it("decodes snappy@7's output and honours a sufficient maxLength", () => {
    const input = structured(200_000, 9);
    const out = uncompress(oracleCompress(input), { maxLength: 200_000 });
    expect(firstDifference(out, input)).toBe(-1);
  });
});

// Streams built element by element, for the decoder's windows (32 KiB of input, 4 KiB for a
// mostly incompressible stream; 256 KiB of output, moved on keeping 64 KiB; literals of
// ≥ 4 KiB straight to the destination in incompressible streams).
/** A stream of `elements`, each [bytes, output length], declaring their total or `declared`. */
function stream(elements: [number[], number][], declared?: number): Uint8Array {
  const total = elements.reduce((sum, [, n]) => sum + n, 0);
  return bytes(varint(declared ?? total), ...elements.map(([element]) => element));
}

/**
 * A compressible stream (so not read as incompressible) with a literal too long for the
 * output window's room: 230,000 bytes of copies, a 65,536-byte literal straight to the
 * destination, a short literal the restarted window holds, 330,000 bytes of copies from it
 * through the fast path (the window moves on) with one reaching 10 bytes before the restart,
 * copies from before it (the window takes bytes back from the destination), and a last
 * 300-byte literal.
 */
function directMidStream(): [number[], number][] {
  const elements: [number[], number][] = [[literal(randomBytes(1000, 31)), 1000]];
  let produced = 1000;
  const push = (element: number[], n: number) => {
    elements.push([element, n]);
    produced += n;
  };
  while (produced < 230_000) push(copy2(64, 999 - (produced % 11)), 64);
  push(literal(randomBytes(65_536, 32)), 65_536);
  const restart = produced;
  push(literal(randomBytes(100, 34)), 100);
  // 65,636 bytes in the window since the restart, then a copy starting 10 bytes before it
  // (from the destination, then from the window: byte by byte).
  for (let k = 0; produced - restart < 65_636; k++) {
    push(copy2(64, Math.min(produced - restart, 65_535) - (k % 7)), 64);
  }
  push(copy4(64, 65_646), 64);
  for (let k = 0; produced < 630_000; k++) {
    push(copy2(64, Math.min(produced - restart, 65_535) - (k % 7)), 64);
  }
  for (let k = 0; k < 20; k++) push(copy4(64, produced - restart + 1000 * k + 1), 64);
  push(literal(randomBytes(300, 33)), 300);
  return elements;
}

/**
 * Incompressible: literals of ≥ 4 KiB straight to the destination, copies into them (the
 * window takes them back), a short literal between, literals across input windows.
 */
function sparseStream(): [number[], number][] {
  const sparse: [number[], number][] = [];
  for (let k = 0; k < 12; k++) {
    const data = randomBytes(4096 + k * 997, 20 + k);
    sparse.push([literal(data), data.length], [copy2(64, data.length - 3), 64]);
    sparse.push([copy2(20, 10), 20], [literal(randomBytes(2315, k)), 2315], [copy2(9, 2499), 9]);
  }
  sparse.push([copy4(64, 60_000), 64], [copy4(33, 5), 33]);
  // A direct literal, a short one after it and a copy reaching back past both (the window
  // takes bytes back while holding some of its own); a last direct literal with under 1 KiB
  // after it (the output ends in a window that restarted).
  sparse.push([literal(randomBytes(5000, 40)), 5000], [literal(randomBytes(50, 41)), 50]);
  sparse.push([copy2(64, 150), 64], [copy2(30, 7), 30]);
  sparse.push([literal(randomBytes(4500, 42)), 4500], [literal(randomBytes(20, 43)), 20]);
  sparse.push([copy2(30, 7), 30]);
  return sparse;
}

/** Streams that move both windows every way they move; each decodes as snappy@7 decodes it. */
function windowStreams(): Uint8Array[] {
  const big = randomBytes(70_000, 11);
  // Compressible, over 256 KiB: a 70,000-byte literal (through the window), copies at
  // offsets up to 65,535 and, with copy-4, 70,000 (in the window) and past 64 KiB after the
  // window moved on (from the destination), overlapping ones, and a literal across the end
  // of an input window.
  const slid: [number[], number][] = [[literal(big), big.length]];
  let produced = big.length;
  const push = (element: number[], n: number) => {
    slid.push([element, n]);
    produced += n;
  };
  for (let k = 0; k < 4000; k++) {
    push(k % 3 === 0 ? copy4(64, 70_000) : copy2(64, 65_535 - (k % 7)), 64);
    if (k % 500 === 499 && produced > 300_000) push(copy4(50, produced - 1000 - k), 50);
    if (k % 500 === 499) push(copy4(40, 3), 40);
    if (k % 1000 === 999) push(literal(randomBytes(300, k)), 300);
  }
  // Many literals, a long input read through several windows, literals straddling each
  // window's end; of every length the fast path treats apart (a length in the tag up to 60,
  // one or two length bytes; moves of 8 and 16 bytes; 256 and more copied whole).
  const lengths = [1, 7, 8, 9, 15, 16, 17, 59, 60, 61, 62, 90, 255, 256, 257, 1000, 3000];
  const literals: [number[], number][] = [[literal(randomBytes(100, 99)), 100]];
  for (let k = 0; k < 700; k++) {
    const n = lengths[k % lengths.length]! + (k % 3 === 2 && k > 100 ? k % 13 : 0);
    literals.push([literal(randomBytes(n, 100 + k)), n]);
    literals.push([copy2(64, 80), 64], [copy2(64, 64), 64], [copy2(30, 1), 30]);
  }
  return [stream(slid), stream(sparseStream()), stream(literals), stream(directMidStream())];
}

describe("uncompress: through the windows", () => {
  it("decodes streams that move them, as snappy@7 does, also into a caller's array", () => {
    for (const input of windowStreams()) {
      const expected = oracleUncompress(input);
      expect(expected.length).toBeGreaterThan(40_000);
      expect(firstDifference(uncompress(input), expected)).toBe(-1);
      const backing = new Uint8Array(expected.length + 9).fill(0xa5);
      const output = backing.subarray(4, 4 + expected.length);
      expect(uncompressInto(input, output)).toBe(expected.length);
      expect(firstDifference(output, expected)).toBe(-1);
      expect(backing.subarray(0, 4).every((b) => b === 0xa5)).toBe(true);
      expect(backing.subarray(4 + expected.length).every((b) => b === 0xa5)).toBe(true);
    }
  });

  it("names stream and output positions, not window positions", () => {
    const data = randomBytes(40_000, 5);
    // A copy-2 cut short after 40,003 input bytes (the tag at byte 40,006).
    rejects(
      bytes(varint(80_001), literal(data), copy2(64, 40_000).slice(0, 2)),
      "CORRUPT_INPUT",
      /copy-2 tag needs 2 more bytes, only 1 remain \(tag at byte 40006\)/,
    );
    // After the output window moved on: an offset past everything produced so far.
    const long: [number[], number][] = [[literal(data), data.length]];
    for (let k = 0; k < 5000; k++) long.push([copy2(64, 40_000), 64]);
    long.push([copy4(4, 400_001), 4]);
    rejects(stream(long), "CORRUPT_INPUT", /copy offset 400001 reaches before the 360000 bytes/);
  });

  it("decodes a literal that ends 7 bytes before the output window's end", () => {
    // 261,889 bytes, then a 248-byte literal (one length byte, 31 steps of 8 bytes) that ends
    // where the fast path's room check allows no byte more: 7 before the 256 KiB window's end.
    const elements: [number[], number][] = [[literal(randomBytes(100, 50)), 100]];
    for (let k = 0; k < 4090; k++) elements.push([copy2(64, 64), 64]);
    elements.push([copy2(29, 64), 29], [literal(randomBytes(248, 51)), 248]);
    for (let k = 0; k < 100; k++) elements.push([copy2(64, 1000), 64]);
    const input = stream(elements);
    expect(firstDifference(uncompress(input), oracleUncompress(input))).toBe(-1);
  });

  it("names the element that overruns a declared length, wherever the windows are", () => {
    // Declared lengths ending inside elements before and after a direct literal, after the
    // window took bytes back, in the last copy and the last literal: the checked decoder
    // names the element and where it starts (the fast path stops 72 bytes short of the
    // declared end, in whichever window).
    const rejectsShort = (elements: [number[], number][], declared: number) => {
      // The first element that ends past `declared`, and where it starts.
      let at = 0;
      let k = 0;
      while (at + elements[k]![1] <= declared) at += elements[k++]![1];
      const [[tag], n] = elements[k]!;
      const kind = (tag! & 3) === 0 ? "literal" : "copy";
      const body = bodies.get(elements) ?? bytes(...elements.map(([element]) => element));
      bodies.set(elements, body);
      const preamble = varint(declared);
      const input = new Uint8Array(preamble.length + body.length);
      input.set(preamble);
      input.set(body, preamble.length);
      rejects(
        input,
        "CORRUPT_INPUT",
        new RegExp(`^${kind} of ${n} bytes at output ${at} overruns the declared ${declared} `),
      );
    };
    const bodies = new Map<[number[], number][], Uint8Array>();
    const mid = directMidStream();
    const total = mid.reduce((sum, [, n]) => sum + n, 0);
    for (const declared of [total - 1, total - 301, 500_001, 300_003, 200_005]) {
      rejectsShort(mid, declared);
    }
    // Every element of the incompressible stream cut one byte short.
    const sparse = sparseStream();
    let end = 0;
    for (const [, n] of sparse) {
      end += n;
      rejectsShort(sparse, end - 1);
    }
  });

  it("agrees with snappy@7's decoder on mutated streams that move them", () => {
    agreesOnMutations(windowStreams(), 300);
  });
});

/**
 * How an overrun of a small output's declared length is named: by the kernel's path once its
 * fast path returns (checked.ts), by plain.ts at the element that crosses it.
 */
const overrun = (declared: number) =>
  kernel
    ? new RegExp(`^stream overruns its declared ${declared} bytes \\(\\d+ by byte \\d+`)
    : new RegExp(`overruns the declared ${declared} \\(tag at byte \\d+\\)$`);

describe("uncompress: hostile input", () => {
  it("rejects bad preambles", () => {
    rejects(bytes(), "CORRUPT_INPUT", /empty input/);
    rejects(bytes(0x80), "CORRUPT_INPUT", /truncated length preamble/);
    rejects(bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0), "CORRUPT_INPUT", /overlong/);
    rejects(bytes(0xff, 0xff, 0xff, 0xff, 0x1f, 0), "CORRUPT_INPUT", /exceeds 2\^32-1/);
  });

  it("rejects, before allocating, a preamble the body cannot expand to", () => {
    // 4 GiB - 1 declared by a 5-byte body: at most 106 bytes could come out of it.
    rejects(
      bytes(varint(2 ** 32 - 1), 0x0c, ABCD),
      "CORRUPT_INPUT",
      /can decode to at most 106/,
      2 ** 32,
    );
    // snappyjs's 6-byte hang: a literal claiming 4 GiB. The length in the message is the
    // four bytes' (read from the right place), and so is what remains of the input.
    rejects(
      bytes(0x01, 0xfc, 0, 0, 0xff, 0xff),
      "CORRUPT_INPUT",
      /^literal of 4294901761 bytes runs past the end of the input \(0 remain; tag at byte 1\)$/,
    );
    // The densest valid stream passes the bound: 'a' then 3-byte copies of 64.
    const dense = bytes(varint(1 + 64 * 100), 0, 0x61, ...Array(100).fill([(63 << 2) | 2, 1, 0]));
    expect(uncompress(dense).length).toBe(6401);
  });

  it("rejects a declared length over maxLength with LENGTH_LIMIT", () => {
    const stream = compress(structured(1000, 1));
    rejects(stream, "LENGTH_LIMIT", /declares 1000 bytes, over the maxLength of 999/, 999);
    expect(uncompress(stream, { maxLength: 1000 }).length).toBe(1000);
    rejects(bytes(1, 0, 0x61), "LENGTH_LIMIT", /over the maxLength of 0/, 0);
  });

  it("reads a 4-byte literal length of zero as one byte, and counts what remains past a moved input window", () => {
    expect(Array.from(uncompress(bytes(1, 63 << 2, 0, 0, 0, 0, 0x61)))).toEqual([0x61]);
    // 100,000 bytes of literal first, so the input window has moved on (it holds 32 KiB)
    // when the 4 GiB claim is read: the bytes remaining are counted from the stream's start.
    const first = new Uint8Array(100_000).fill(7);
    const stream = bytes(
      varint(100_001),
      62 << 2,
      0x9f,
      0x86,
      0x01,
      first,
      0xfc,
      0,
      0,
      0xff,
      0xff,
      1,
    );
    rejects(
      stream,
      "CORRUPT_INPUT",
      /^literal of 4294901761 bytes runs past the end of the input \(1 remain; tag at byte 100007\)$/,
    );
  });

  it("rejects truncated elements", () => {
    rejects(
      bytes(4, 61 << 2, 0x63),
      "CORRUPT_INPUT",
      /literal tag needs 2 more bytes, only 1 remain \(tag at byte 1\)/,
    );
    rejects(
      bytes(10, 9 << 2, 0x61, 0x62, 0x63),
      "CORRUPT_INPUT",
      /literal of 10 bytes runs past the end of the input \(3 remain; tag at byte 1\)/,
    );
    rejects(
      bytes(8, 0x0c, ABCD, 0x01),
      "CORRUPT_INPUT",
      /copy-1 tag needs 1 more bytes, only 0 remain \(tag at byte 6\)/,
    );
    rejects(bytes(8, 0x0c, ABCD, 0x0e, 4), "CORRUPT_INPUT", /copy-2 tag needs 2 more bytes/);
    rejects(
      bytes(8, 0x0c, ABCD, 0x0f, 4, 0, 0),
      "CORRUPT_INPUT",
      /copy-4 tag needs 4 more bytes, only 3 remain \(tag at byte 6\)/,
    );
  });

  it("rejects bad offsets", () => {
    rejects(bytes(8, 0x0c, ABCD, 0x01, 0), "CORRUPT_INPUT", /copy with offset 0 \(tag at byte 6\)/);
    rejects(
      bytes(8, 0x0c, ABCD, 0x01, 5),
      "CORRUPT_INPUT",
      /copy offset 5 reaches before the 4 bytes produced/,
    );
    rejects(
      bytes(4, 0x01, 1),
      "CORRUPT_INPUT",
      /copy offset 1 reaches before the 0 bytes produced/,
    );
    // A copy-4 offset above 2^31 must not wrap negative and slip past the check.
    rejects(
      bytes(8, 0x0c, ABCD, 0x0f, 0, 0, 0, 0x80),
      "CORRUPT_INPUT",
      /copy offset 2147483648 reaches before/,
    );
  });

  it("rejects output longer or shorter than the preamble", () => {
    rejects(
      bytes(3, 0x0c, ABCD),
      "CORRUPT_INPUT",
      /literal of 4 bytes at output 0 overruns the declared 3/,
    );
    rejects(
      bytes(6, 0x0c, ABCD, 0x01, 4),
      "CORRUPT_INPUT",
      /copy of 4 bytes at output 4 overruns the declared 6/,
    );
    rejects(
      bytes(5, 0x0c, ABCD),
      "CORRUPT_INPUT",
      /stream produces 4 bytes, but its preamble declares 5/,
    );
    const stream = compress(structured(1000, 2));
    rejects(stream.subarray(0, stream.length - 1), "CORRUPT_INPUT", /./);
  });

  it("runs a small output's fast path to its declared end, and rejects an overrun there", () => {
    // 16 literal bytes, then 64-byte copies, with enough input after each for the fast
    // path: the copy that crosses the declared end starts less than 72 bytes before it.
    // Up to SMALL_OUTPUT the fast path takes that copy (the whole window is room) and the
    // overrun shows after it; one byte more, the fast path stops 72 bytes short and the
    // checked code names the copy. Without the kernel (plain.ts) the element that crosses the
    // declared end is named.
    const body = (total: number) => {
      const elements = [literal(ABCD.concat(ABCD, ABCD, ABCD))];
      for (let n = 16; n < total + 64 * 8; n += 64) elements.push(copy2(64, 16));
      return elements.flat();
    };
    const stream = (declared: number) => bytes(varint(declared), body(declared));
    for (const declared of [143, SMALL_OUTPUT - 1, SMALL_OUTPUT]) {
      rejects(stream(declared), "CORRUPT_INPUT", overrun(declared));
      // The error carries its numbers as fields too, whichever code names it.
      expect(() => uncompress(stream(declared))).toThrow(
        expect.objectContaining({
          reason: "output-overrun",
          declared,
          produced: expect.any(Number),
          at: expect.any(Number),
        }),
      );
    }
    // An element that starts exactly at the declared end is the checked code's to name.
    rejects(
      stream(144),
      "CORRUPT_INPUT",
      /^copy of 64 bytes at output 144 overruns the declared 144 /,
    );
    const start = 16 + 64 * Math.floor((SMALL_OUTPUT + 1 - 16) / 64);
    rejects(
      stream(SMALL_OUTPUT + 1),
      "CORRUPT_INPUT",
      new RegExp(`^copy of 64 bytes at output ${start} overruns the declared ${SMALL_OUTPUT + 1}`),
    );
    // Cut at an element's end, the same streams decode, through both entry points.
    for (const declared of [144, SMALL_OUTPUT - 48, SMALL_OUTPUT + 16]) {
      const input = bytes(
        varint(declared),
        body(declared).slice(0, 16 + 1 + ((declared - 16) / 64) * 3),
      );
      const expected = oracleUncompress(input);
      expect(firstDifference(uncompress(input), expected)).toBe(-1);
      const into = new Uint8Array(declared);
      expect(uncompressInto(input, into)).toBe(declared);
      expect(firstDifference(into, expected)).toBe(-1);
    }
  });

  it("takes a small output's literals of every length class to the declared end, and rejects one that overruns it", () => {
    // A literal of L bytes (in the tag, 1 or 2 length bytes, at and past LONG_LITERAL) that
    // ends 192 bytes before the end, with three copies after it: enough input for the fast
    // path to take it, which it now does up to the end of a small output. Then the same
    // stream declared one byte short of the literal's end: the literal overruns there.
    const data = (n: number) => Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
    for (const n of [60, 61, 255, LONG_LITERAL, LONG_LITERAL + 1, 300]) {
      const body = [
        literal(ABCD.concat(ABCD, ABCD, ABCD)),
        literal(data(n)),
        copy2(64, 16),
        copy2(64, 16),
        copy2(64, 16),
      ].flat();
      const declared = 16 + n + 192;
      const input = bytes(varint(declared), body);
      const expected = oracleUncompress(input);
      expect(firstDifference(uncompress(input), expected)).toBe(-1);
      const into = new Uint8Array(declared);
      expect(uncompressInto(input, into)).toBe(declared);
      expect(firstDifference(into, expected)).toBe(-1);
      rejects(
        bytes(varint(16 + n - 1), body),
        "CORRUPT_INPUT",
        kernel
          ? new RegExp(`^stream overruns its declared ${16 + n - 1} bytes \\(${16 + n} by byte`)
          : new RegExp(`^literal of ${n} bytes at output 16 overruns the declared ${16 + n - 1} `),
      );
    }
  });

  it("rejects non-byte input with INVALID_ARGUMENT", () => {
    rejects("abc" as never, "INVALID_ARGUMENT", /must be a Uint8Array/);
    rejects(bytes(1, 0, 0x61), "INVALID_ARGUMENT", /maxLength/, -1);
  });
});

/**
 * Agreement with snappy@7's decoder (Rust `snap`, as strict as libsnappy): on every input,
 * both reject or both return the same bytes. Inputs the expansion bound rejects are checked
 * to be ones snap cannot decode either (it would first allocate the claimed length).
 */
function agreesWithOracle(input: Uint8Array): void {
  let ours: Uint8Array | undefined;
  let ourError: unknown;
  try {
    ours = uncompress(input, { maxLength: 2 ** 32 });
  } catch (error) {
    ourError = error;
  }
  if (ourError !== undefined) {
    expect(isSnappyError(ourError), String(ourError)).toBe(true);
    if (/can decode to at most/.test((ourError as Error).message)) return;
  }
  let theirs: Uint8Array | undefined;
  try {
    theirs = oracleUncompress(input);
  } catch {
    theirs = undefined;
  }
  if (theirs === undefined) {
    expect(
      ours,
      `accepted what snappy@7 rejects: ${Array.from(input.subarray(0, 24))}`,
    ).toBeUndefined();
  } else {
    expect(ourError, `rejected what snappy@7 accepts: ${String(ourError)}`).toBeUndefined();
    expect(firstDifference(ours!, theirs)).toBe(-1);
  }
}

/** {@link agreesWithOracle} on `runs` copies of `sources` with 1–4 bytes overwritten, some cut. */
function agreesOnMutations(sources: Uint8Array[], runs: number): void {
  fc.assert(
    fc.property(
      fc.nat(sources.length - 1),
      fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 4 }),
      fc.option(fc.nat(), { nil: undefined }),
      (which, edits, cut) => {
        const stream = sources[which]!.slice();
        for (const [at, value] of edits) stream[at % stream.length] = value;
        agreesWithOracle(cut === undefined ? stream : stream.subarray(0, cut % stream.length));
      },
    ),
    { numRuns: runs },
  );
}

describe("uncompress: fuzzing against snappy@7's decoder", () => {
  it("random bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 128 }), agreesWithOracle), { numRuns: 5000 });
  });

  it("mutated valid streams", () => {
    const sources = [structured(3000, 1), randomBytes(500, 2), randomBytes(2000, 3, 0x03)].map(
      compress,
    );
    agreesOnMutations(sources, 5000);
  });
});

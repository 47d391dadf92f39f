// How far the kernel's fast path (kernel.wat: fastPath) goes: it must take every element it
// was built for, up to the limits it is given, and leave the rest to the checked code at the
// element's start. Taking less still decodes right (the checked code takes over), so only
// these tests see a fast path that gives up early: a slowdown no result shows.
import { copy1 as copy1Bytes, copy2 as copy2Bytes, literal } from "@snappykit/conformance";
import { describe, expect, it } from "vitest";
import { kernel } from "./kernel.js";
import { windows } from "./windows.js";

const { IN, OUT, OUT_SIZE, DIRECT } = windows();
const { fastPath, state } = kernel!;

/** An element: its bytes, and what it appends to the output so far. */
type Element = { bytes: number[]; decode(out: number[]): void };

const lit = (data: number[]): Element => ({
  bytes: literal(data),
  decode: (out) => out.push(...data),
});
const copy = (bytes: number[], offset: number, length: number): Element => ({
  bytes,
  decode: (out) => {
    for (let i = 0; i < length; i++) out.push(out[out.length - offset]!);
  },
});
/** §2.2.1: lengths 4..11, offsets below 2048. */
const copy1 = (offset: number, length: number) => copy(copy1Bytes(length, offset), offset, length);
/** §2.2.2: lengths 1..64, offsets below 65,536. */
const copy2 = (offset: number, length: number) => copy(copy2Bytes(length, offset), offset, length);

let seed = 7;
const next = (n: number) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed % n;
};
const data = (n: number) => Array.from({ length: n }, () => next(256));

interface Laid {
  /** Where each element starts in the input and in the output. */
  starts: { pos: number; op: number }[];
  output: number[];
}

/** Write the elements into the input window from 0; the bytes after them are 0xff. */
function lay(elements: Element[]): Laid {
  IN.fill(0xff);
  OUT.fill(0);
  const starts: Laid["starts"] = [];
  const output: number[] = [];
  let pos = 0;
  for (const e of elements) {
    starts.push({ pos, op: output.length });
    IN.set(e.bytes, pos);
    pos += e.bytes.length;
    e.decode(output);
  }
  starts.push({ pos, op: output.length });
  return { starts, output };
}

/** Run the fast path from the start; where it stopped, and the output it wrote. */
function run(fastEnd: number, fastOutEnd: number) {
  const pos = fastPath(0, 0, fastEnd, fastOutEnd);
  const op = state[0]!;
  return { pos, op, output: Array.from(OUT.subarray(0, op)) };
}

/**
 * Every element the fast path takes, in one stream: literals of each length in the tag
 * (1–60), with one length byte (61–255) and two (256 up to DIRECT − 1); copy-1 and copy-2 at
 * every offset below 16 (each has pattern masks of its own in the kernel), at offsets of 16
 * and more, and around every length where its moves change (8, 16, 32: the kernel's
 * unconditional moves).
 */
function everyFastElement(): Element[] {
  const e: Element[] = [lit(data(64))];
  for (let n = 1; n <= 60; n++) e.push(lit(data(n)));
  const copy1Offsets = [...Array.from({ length: 17 }, (_, i) => i + 1), 31, 255, 256, 2047];
  // Each offset's copies after fresh bytes: after a run (offset 1) every copy would repeat it.
  for (const offset of copy1Offsets) {
    for (let length = 4; length <= 11; length++) e.push(lit(data(16)), copy1(offset, length));
  }
  for (const n of [61, 62, 100, 255]) e.push(lit(data(n)));
  for (let offset = 1; offset <= 17; offset++) copy2Lengths(e, offset);
  for (const offset of [100, 2048, 4000]) copy2Lengths(e, offset);
  for (const n of [256, 257, 1000, DIRECT - 1]) e.push(lit(data(n)), copy2(n, 64));
  // A tail of short elements whose output (~6 KiB) gives the literals above the window room
  // they need: the room is counted up to the limits, which the tests put at the last element.
  for (let k = 0; k < 80; k++) {
    e.push(lit(data(1 + (k % 16))), copy1(1 + k, 4 + (k % 8)), copy2(100 + k, 64));
  }
  return e;
}

/** Copy-2 at `offset`, after fresh bytes, around every length where the kernel's moves change. */
function copy2Lengths(e: Element[], offset: number): void {
  for (const length of [1, 3, 4, 8, 9, 16, 17, 24, 31, 32, 33, 63, 64]) {
    e.push(lit(data(16)), copy2(offset, length));
  }
}

describe("fastPath: how far it goes", () => {
  it("takes every element it was built for, up to the last one its limits allow", () => {
    const { starts, output } = lay(everyFastElement());
    const last = starts[starts.length - 2]!;
    const end = starts[starts.length - 1]!;
    expect(end.pos).toBeLessThan(IN.length - 17);
    // Limits exactly at the last element's start: it is taken, and nothing after it.
    const r = run(last.pos, last.op);
    expect(r.pos).toBe(end.pos);
    expect(r.op).toBe(end.op);
    expect(r.output).toEqual(output);
  });

  it("stops before an element that starts past either limit", () => {
    const { starts } = lay(everyFastElement());
    const at = starts[200]!;
    expect(run(at.pos - 1, OUT_SIZE - 72)).toMatchObject({ pos: at.pos, op: at.op });
    expect(run(IN.length - 17, at.op - 1)).toMatchObject({ pos: at.pos, op: at.op });
  });

  // Each limit an element must fit: met exactly, the element is taken (a fast path that
  // counts one byte short gives up on it).
  it("takes a 33-60 byte literal whose bytes end exactly at the input limit, and leaves it one byte short", () => {
    const { starts } = lay([lit(data(40)), lit(data(3))]);
    // end = fastEnd + 17 must reach the literal's bytes (from 1): 1 + 40.
    expect(run(41 - 17, OUT_SIZE - 72)).toMatchObject({ pos: starts[1]!.pos, op: 40 });
    expect(run(40 - 17, OUT_SIZE - 72)).toMatchObject({ pos: 0, op: 0 });
  });

  it("takes a message's last literal (61-255 bytes, ending at the input's end)", () => {
    const { starts } = lay([lit(data(100))]);
    // Two bytes of tag: the data is at 2..102, and end = fastEnd + 17 = 102.
    expect(run(102 - 17, OUT_SIZE - 72)).toMatchObject({ pos: starts[1]!.pos, op: 100 });
    expect(run(101 - 17, OUT_SIZE - 72)).toMatchObject({ pos: 0, op: 0 });
  });

  it("takes a literal of up to 32 bytes that ends exactly at the input limit (it moves 32 bytes whatever its length)", () => {
    const { starts } = lay([lit(data(32)), lit(data(3))]);
    // end = fastEnd + 17 = 33: the literal's bytes are 1..33.
    expect(run(33 - 17, OUT_SIZE - 72)).toMatchObject({ pos: starts[1]!.pos, op: 32 });
  });

  it("leaves a literal of 33 bytes that ends one byte past the input limit", () => {
    lay([lit(data(33)), lit(data(3))]);
    expect(run(33 - 17, OUT_SIZE - 72)).toMatchObject({ pos: 0, op: 0 });
  });

  it("writes nothing at or past its window room (fastOutEnd + 72), whatever it moves past an element", () => {
    const { starts } = lay(everyFastElement());
    const last = starts[starts.length - 2]!;
    OUT.fill(0xee, last.op + 72);
    run(last.pos, last.op);
    expect(OUT.subarray(last.op + 72, last.op + 72 + 256).every((b) => b === 0xee)).toBe(true);
    // The same for an element of each kind of move, the last one its limits allow: a short
    // literal, copies from 16+ and 8-15 back, runs at offsets 1 to 4.
    const kinds = [
      lit(data(1)),
      lit(data(16)),
      copy2(16, 1),
      copy2(20, 64),
      copy2(8, 4),
      copy2(9, 64),
    ];
    for (const offset of [1, 2, 3, 4]) kinds.push(copy2(offset, 1), copy2(offset, 64));
    for (const element of kinds) {
      const laid = lay([lit(data(20)), element]);
      const at = laid.starts[1]!;
      OUT.fill(0xee, at.op + 72);
      const r = run(at.pos, at.op);
      expect(r).toMatchObject({ pos: laid.starts[2]!.pos, op: laid.starts[2]!.op });
      expect(r.output).toEqual(laid.output);
      expect(OUT.subarray(at.op + 72, at.op + 72 + 256).every((b) => b === 0xee)).toBe(true);
    }
  });

  it("writes nothing past its window room for a 33-60 byte literal (16-byte steps after 32)", () => {
    for (const n of [33, 48, 49, 60]) {
      const laid = lay([lit(data(20)), lit(data(n)), lit(data(3))]);
      const at = laid.starts[1]!;
      OUT.fill(0xee, at.op + 72);
      const r = run(IN.length - 17, at.op);
      expect(r).toMatchObject({ pos: laid.starts[2]!.pos, op: laid.starts[2]!.op });
      expect(r.output).toEqual(laid.output.slice(0, at.op + n));
      expect(OUT.subarray(at.op + 72, at.op + 72 + 256).every((b) => b === 0xee)).toBe(true);
    }
  });

  it("takes a 61-255 byte literal with exactly its length and 15 bytes of window room", () => {
    const { starts } = lay([lit(data(100)), lit(data(3))]);
    // outLimit = fastOutEnd + 72 must hold 100 + 15 bytes from op 0 (16-byte steps).
    expect(run(IN.length - 17, 115 - 72)).toMatchObject({ pos: starts[1]!.pos, op: 100 });
    expect(run(IN.length - 17, 114 - 72)).toMatchObject({ pos: 0, op: 0 });
  });

  it("takes a literal of 256 or more whose bytes end exactly at the input limit", () => {
    const { starts } = lay([lit(data(300)), lit(data(3))]);
    // Two length bytes: the data is at 3..303, and end = fastEnd + 17 = 303.
    expect(run(303 - 17, OUT_SIZE - 72)).toMatchObject({ pos: starts[1]!.pos, op: 300 });
  });

  it("takes a literal of exactly 256 bytes whose bytes end exactly at the input limit (moved whole: no 15 bytes to spare)", () => {
    const { starts } = lay([lit(data(256)), lit(data(3))]);
    // One length byte: the data is at 2..258, and end = fastEnd + 17 = 258.
    expect(run(258 - 17, OUT_SIZE - 72)).toMatchObject({ pos: starts[1]!.pos, op: 256 });
  });
});

describe("fastPath: what it leaves to the checked code", () => {
  const leaves = (name: string, element: Element) =>
    it(name, () => {
      const { starts } = lay([lit(data(20)), element, lit(data(5))]);
      expect(run(IN.length - 17, OUT_SIZE - 72)).toMatchObject({ pos: starts[1]!.pos, op: 20 });
    });
  // DIRECT − 1 is taken (everyFastElement); DIRECT and one more are not.
  leaves("a literal of DIRECT bytes (it goes to the destination)", lit(data(DIRECT)));
  leaves("a literal of DIRECT + 1 bytes", lit(data(DIRECT + 1)));
  leaves("a literal whose length takes three bytes", {
    bytes: [62 << 2, 0, 0, 0, ...data(8)],
    decode: () => {},
  });
  leaves("a copy reaching before the output's start", copy2(21, 4));
  leaves("a copy with offset 0", copy2(0, 4));
  leaves("a copy with a 4-byte offset (libsnappy never writes one)", {
    bytes: [3 | (3 << 2), 1, 0, 0, 0],
    decode: () => {},
  });
});

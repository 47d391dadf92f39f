// What callers pass, through the framing functions (the codec's own paths are the
// conformance suite's "what callers pass" checks): Uint8Array subclasses whose constructor or
// species breaks their methods, a polluted Object.prototype, an array as options, a detached
// input.
import { asSubclass as as, SUBCLASSES } from "@snappykit/conformance/cases";
import { concatBytes } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { decodeFramed, decodeFramedStream, encodeFramed, encodeFramedStream } from "./index.js";
import { codecs, codeOf, structuredBytes } from "./test/helpers.js";

async function collect(pieces: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const piece of pieces) n += piece.length;
  return n;
}

const codec = codecs[0]!;
const data = structuredBytes(200_000);
const framed = encodeFramed(codec, data);
/** Whether `bytes` are `data`'s (toEqual on 200 KB arrays is slow). */
const isData = (bytes: Uint8Array) =>
  bytes.length === data.length && bytes.every((b, i) => b === data[i]);

describe("what callers pass, framed", () => {
  for (const [kind, Subclass] of SUBCLASSES) {
    it(`takes ${kind} as input everywhere`, async () => {
      expect(isData(decodeFramed(codec, encodeFramed(codec, as(data, Subclass))))).toBe(true);
      expect(isData(decodeFramed(codec, as(framed, Subclass)))).toBe(true);
      expect(await collect(decodeFramedStream(codec, [as(framed, Subclass)]))).toBe(data.length);
      const parts: Uint8Array[] = [];
      for await (const part of encodeFramedStream(codec, [as(data, Subclass)])) parts.push(part);
      expect(isData(decodeFramed(codec, concatBytes(parts)))).toBe(true);
    });
  }

  it("sets no option from a polluted Object.prototype", async () => {
    const proto = Object.prototype as { maxLength?: number };
    proto.maxLength = 1000;
    try {
      expect(decodeFramed(codec, framed, {})).toHaveLength(data.length);
      expect(decodeFramed(codec, framed)).toHaveLength(data.length);
      expect(await collect(decodeFramedStream(codec, [framed], {}))).toBe(data.length);
    } finally {
      delete proto.maxLength;
    }
  });

  it("refuses an array as options, and a detached input", async () => {
    expect(codeOf(() => decodeFramed(codec, framed, [] as never))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => encodeFramed(codec, data, [] as never))).toBe("INVALID_ARGUMENT");
    const detached = (bytes: Uint8Array) => {
      const mine = new Uint8Array(bytes);
      structuredClone(mine, { transfer: [mine.buffer] });
      return mine;
    };
    expect(codeOf(() => decodeFramed(codec, detached(framed)))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => encodeFramed(codec, detached(data)))).toBe("INVALID_ARGUMENT");
    await expect(collect(decodeFramedStream(codec, [detached(framed)]))).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      reason: "detached",
    });
  });
});

// Self-tests of the calling-pattern checks: async calls that read their input after
// returning, codecs that refuse memory a caller may pass.
import {
  bytesOf,
  maxCompressedLength,
  outputSpace,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { failures, reference } from "./test/reference.js";

describe("the calling-pattern checks", () => {
  it("fail an async API that reads its input after the call has returned", async () => {
    // A thread pool handed a pointer: it reads the caller's memory when it gets to it.
    const later = <T>(work: () => T) =>
      new Promise<T>((resolve, reject) =>
        setTimeout(() => {
          try {
            resolve(work());
          } catch (error) {
            reject(error);
          }
        }),
      );
    const borrowing: SnappyCodec = {
      ...reference,
      compressAsync: (input) => later(() => reference.compress(input)),
      uncompressAsync: (input, options) => later(() => reference.uncompress(input, options)),
    };
    expect(await failures(borrowing)).toEqual([
      "calling patterns: async: the input overwritten right after the call does not change the result",
      "calling patterns: async: the input's buffer transferred and collected right after the call",
    ]);
    const snapshot: SnappyCodec = {
      ...reference,
      compressAsync: (input) => {
        bytesOf(input);
        const mine = new Uint8Array(input);
        return later(() => reference.compress(mine));
      },
      uncompressAsync: (input, options) => {
        bytesOf(input);
        const mine = new Uint8Array(input);
        return later(() => reference.uncompress(mine, options));
      },
    };
    expect(await failures(snapshot)).toEqual([]);
  });

  it("fail a codec that refuses memory it should take: shared, resizable, pooled", async () => {
    const picky = (input: Uint8Array) => {
      bytesOf(input);
      if (input.buffer instanceof SharedArrayBuffer || input.buffer.resizable) {
        throw new SnappyError("bad-argument", "plain ArrayBuffers only");
      }
      return input;
    };
    const fussy: SnappyCodec = {
      ...reference,
      compress: (input) => reference.compress(picky(input)),
      uncompress: (input, options) => reference.uncompress(picky(input), options),
    };
    expect(await failures(fussy)).toEqual([
      "calling patterns: every kind of array, as input and as output, in every operation",
    ]);
  });

  it("fail a *Into that keeps a view of the last output its buffer has outgrown", async () => {
    // What ts once did: a DataView of the last output, reused while its length still matched
    // the cached view's, whose length is unreadable once the resizable buffer shrinks.
    let last: Uint8Array | undefined;
    let view: DataView = new DataView(new ArrayBuffer(0));
    const cached: SnappyCodec = {
      ...reference,
      compressInto: (input, output) => {
        bytesOf(input);
        outputSpace(input, output, maxCompressedLength(input.length));
        if (output !== last || view.byteLength !== output.byteLength) {
          view = new DataView(output.buffer, output.byteOffset, output.byteLength);
          last = output;
        }
        return reference.compressInto!(input, output);
      },
    };
    expect(await failures(cached)).toEqual([
      "calling patterns: *Into: one output reused while its resizable buffer shrinks and grows",
    ]);
  });

  it("fail an async API whose library keeps every input it is given", async () => {
    const kept: Uint8Array[] = [];
    const hoarding: SnappyCodec = {
      ...reference,
      uncompressAsync: async (input, options) => {
        const mine = new Uint8Array(bytesOf(input));
        kept.push(mine);
        return reference.uncompress(mine, options);
      },
    };
    expect(await failures(hoarding)).toEqual([
      "calling patterns: async: repeated calls on fresh inputs keep none of them",
    ]);
  });
});

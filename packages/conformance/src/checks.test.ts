// Self-tests of the contract, round-trip, hostile-input and ownership checks, against codecs
// known to be right or wrong: a check that a broken codec passes is a check that cannot fail.
import { readUncompressedLength, type SnappyCodec, SnappyError } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { literalStream } from "./corpus.js";
import { oracleUncompress } from "./oracle.js";
import { runConformance } from "./suite.js";
import { failures, reference } from "./test/reference.js";

describe("the conformance checks", () => {
  it("pass a correct codec", async () => {
    expect(await failures(reference)).toEqual([]);
  });

  it("fail an identity 'compressor' (a private format only its own decoder reads)", async () => {
    const identity: SnappyCodec = {
      ...reference,
      compress: (input) => input.slice(),
      uncompress: (input) => input.slice(),
    };
    const failed = await failures(identity);
    expect(failed).toContain("round trip: 1 byte");
    expect(failed).toContain("rejects bad input with SnappyError: copy offset 0");
  });

  it("fail a decoder that trusts the preamble and zero-fills", async () => {
    const zeroFill: SnappyCodec = {
      ...reference,
      uncompress: (input) =>
        new Uint8Array(Math.min(readUncompressedLength(input).length, 1 << 20)),
    };
    const failed = await failures(zeroFill);
    expect(failed).toContain("round trip: 144 B random (a SyncCommitteeMessage's size)");
    expect(failed).toContain(
      "rejects bad input with SnappyError: output shorter than the preamble",
    );
    expect(failed).toContain(
      "agrees with the spec on mutated input: 400 mutations of the codec's own output",
    );
  });

  it("fail a decoder that ignores maxLength", async () => {
    const unlimited: SnappyCodec = {
      ...reference,
      uncompress: (input) => reference.uncompress(input),
    };
    expect(await failures(unlimited)).toEqual([
      "rejects bad input with SnappyError: valid 1,000-byte stream over maxLength 999",
      "rejects bad input with SnappyError: valid empty-ish stream over maxLength 0",
      "rejects bad input with SnappyError: maxLength: a limit exactly at the length passes",
      "rejects bad input with SnappyError: options it does not know, and non-objects",
      "what callers pass: an array where the options go is INVALID_ARGUMENT",
    ]);
  });

  it("fail a decoder that throws plain errors", async () => {
    const plain: SnappyCodec = {
      ...reference,
      uncompress: (input) => {
        try {
          return reference.uncompress(input);
        } catch (error) {
          throw new Error((error as Error).message);
        }
      },
    };
    expect(await failures(plain)).toContain("rejects bad input with SnappyError: copy offset 0");
  });

  it("fail a decoder that returns a shared buffer", async () => {
    const shared = new Uint8Array(1 << 16);
    const aliasing: SnappyCodec = {
      ...reference,
      uncompress: (input, options) => {
        const out = reference.uncompress(input, options);
        if (out.length > shared.length) return out;
        shared.set(out);
        return shared.subarray(0, out.length);
      },
    };
    expect(await failures(aliasing)).toContain(
      "output ownership: results are fresh arrays that later calls do not overwrite",
    );
  });

  it("fail an async API that differs from the sync one or lets bad input through", async () => {
    const wrongBytes: SnappyCodec = {
      ...reference,
      compressAsync: async (input) => new Uint8Array(input),
    };
    const unguarded: SnappyCodec = {
      ...reference,
      uncompressAsync: async (input) => oracleUncompress(input),
    };
    const asyncCheck = "contract: async API (where offered) gives the sync API's bytes and errors";
    expect(await failures(wrongBytes)).toEqual([
      asyncCheck,
      "calling patterns: async: the input overwritten right after the call does not change the result",
      "calling patterns: async: the input's buffer transferred and collected right after the call",
      "calling patterns: every kind of array, as input and as output, in every operation",
      "what callers pass: Uint8Array subclasses as input, in every operation",
      "what callers pass: a detached input is INVALID_ARGUMENT, the same in every path",
    ]);
    expect(await failures(unguarded)).toEqual([
      asyncCheck,
      "calling patterns: async: valid and hostile calls in flight together each get their own answer",
      "what callers pass: a polluted Object.prototype neither lifts maxLength nor breaks a call",
      "what callers pass: an array where the options go is INVALID_ARGUMENT",
      "what callers pass: a detached input is INVALID_ARGUMENT, the same in every path",
    ]);
    const guarded: SnappyCodec = {
      ...reference,
      compressAsync: async (input) => reference.compress(input),
      uncompressAsync: async (input, options) => reference.uncompress(input, options),
    };
    expect(await failures(guarded)).toEqual([]);
  });

  it("fail a codec that reads a view's whole buffer instead of the view", async () => {
    const offsetBlind: SnappyCodec = {
      ...reference,
      compress: (input) => literalStream(new Uint8Array(input.buffer, 0, input.length)),
    };
    expect(await failures(offsetBlind)).toContain(
      "contract: takes Uint8Array views at an offset and Buffers alike",
    );
  });

  it("fail results that are views into a shared slab", async () => {
    // What a pooled codec does: small results carved one after another from a 16 KiB slab.
    let slab = new Uint8Array(16384);
    let used = 0;
    const carve = (bytes: Uint8Array) => {
      if (bytes.length > 1024) return bytes;
      if (used + bytes.length > slab.length) {
        slab = new Uint8Array(16384);
        used = 0;
      }
      const view = slab.subarray(used, used + bytes.length);
      view.set(bytes);
      used += bytes.length;
      return view;
    };
    const pooled: SnappyCodec = {
      ...reference,
      compress: (input) => carve(reference.compress(input)),
      uncompress: (input, options) => carve(reference.uncompress(input, options)),
    };
    const failed = await failures(pooled);
    expect(failed).toContain(
      "output ownership: each result's buffer holds exactly its bytes (offset 0, no slab)",
    );
    expect(failed).toContain(
      "output ownership: transferring one result's buffer leaves every other result intact",
    );
  });

  it("fail results in a larger buffer than their bytes, even unshared", async () => {
    const roomy = (bytes: Uint8Array) => {
      const big = new Uint8Array(bytes.length + 16);
      big.set(bytes);
      return big.subarray(0, bytes.length);
    };
    const oversized: SnappyCodec = {
      ...reference,
      compress: (input) => roomy(reference.compress(input)),
    };
    expect(await failures(oversized)).toEqual([
      "output ownership: each result's buffer holds exactly its bytes (offset 0, no slab)",
    ]);
  });

  it("fail results of another type than a plain Uint8Array", async () => {
    class Bytes extends Uint8Array {}
    const subclass: SnappyCodec = {
      ...reference,
      uncompress: (input, options) => new Bytes(reference.uncompress(input, options)),
    };
    expect(await failures(subclass)).toEqual([
      "output ownership: results are plain Uint8Arrays (not Buffers or other subclasses)",
    ]);
    if (typeof Buffer === "undefined") return;
    // Buffer.from(array) of a small input is also a view into Node's shared 8 KiB pool.
    // Node marks that pool untransferable, so a transfer copies the whole 8 KiB instead of
    // detaching it: the other results survive, but the receiver gets the pool's bytes and
    // the sender keeps them. The buffer-size check and the transfer check catch that.
    const buffers: SnappyCodec = {
      ...reference,
      compress: (input) => Buffer.from(reference.compress(input)),
    };
    expect(await failures(buffers)).toEqual([
      "output ownership: results are plain Uint8Arrays (not Buffers or other subclasses)",
      "output ownership: each result's buffer holds exactly its bytes (offset 0, no slab)",
      "output ownership: transferring one result's buffer leaves every other result intact",
    ]);
  });

  it("fail a codec that takes what only looks like a Uint8Array, or options it ignores", async () => {
    // An instanceof check lets a Proxy through, and then the first typed-array method throws.
    const looseInput: SnappyCodec = {
      ...reference,
      compress: (input) => {
        if (!(input instanceof Uint8Array)) throw new SnappyError("not-bytes", "bytes");
        return literalStream(input);
      },
    };
    expect(await failures(looseInput)).toEqual([
      "rejects bad input with SnappyError: non-Uint8Array arguments",
      "what callers pass: Uint8Array subclasses as input, in every operation",
      "what callers pass: a detached input is INVALID_ARGUMENT, the same in every path",
    ]);
    // Reads `maxLength` off whatever it is given: `uncompress(wire, 10)` means no limit.
    const looseOptions: SnappyCodec = {
      ...reference,
      uncompress: (input, options) =>
        reference.uncompress(input, { maxLength: (options as { maxLength?: number })?.maxLength }),
      uncompressedLength: (input, options) =>
        reference.uncompressedLength!(input, { maxLength: options?.maxLength }),
    };
    expect(await failures(looseOptions)).toEqual([
      "rejects bad input with SnappyError: options it does not know, and non-objects",
      "what callers pass: a polluted Object.prototype neither lifts maxLength nor breaks a call",
      "what callers pass: an array where the options go is INVALID_ARGUMENT",
    ]);
  });

  it("fail a codec with bad metadata", async () => {
    expect(await failures({ ...reference, library: "unknown" })).toEqual([
      "contract: declares contractVersion 1, a name, its library@version and runtime",
    ]);
  });
});
// And the suite as adapters run it (with `setup`: `module` needs a package folder), on the
// reference codec.
runConformance({ setup: () => reference });

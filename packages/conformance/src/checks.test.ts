// The suite tested against codecs we know to be right or wrong: a check that a broken codec
// passes is a check that cannot fail.
import {
  type AdapterModule,
  assertBytes,
  assertOutputSpace,
  checkUncompressedLength,
  maxCompressedLength,
  readUncompressedLength,
  type SnappyCodec,
  SnappyError,
  type UncompressOptions,
} from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { codecsOf, loadModule, moduleChecks, onEveryCodec } from "./adapter.js";
import { type ConformanceInputs, conformanceChecks } from "./checks.js";
import { literalStream } from "./corpus.js";
import { oracleUncompress } from "./oracle.js";
import { boundarySizes } from "./sizes.js";
import { runConformance } from "./suite.js";

function oracleOrCorrupt(input: Uint8Array): Uint8Array {
  try {
    return oracleUncompress(input);
  } catch (error) {
    throw new SnappyError("CORRUPT_INPUT", (error as Error).message);
  }
}

/**
 * A correct codec with every optional capability: stores literals only, decodes with the
 * oracle behind the core guard. (Its *Into members copy from a temporary array: fine for a
 * yardstick, not for an adapter.)
 */
const reference: SnappyCodec = {
  contractVersion: 1,
  name: "reference",
  library: "literal-only@1.0.0",
  runtime: "js",
  compress(input) {
    assertBytes(input);
    return literalStream(input);
  },
  uncompress(input, options) {
    checkUncompressedLength(input, options);
    return oracleOrCorrupt(input);
  },
  uncompressedLength: (input, options) => checkUncompressedLength(input, options).length,
  maxCompressedLength,
  compressInto(input, output) {
    assertBytes(input);
    assertOutputSpace(input, output, maxCompressedLength(input.length));
    const stream = literalStream(input);
    output.set(stream);
    return stream.length;
  },
  uncompressInto(input, output, options) {
    const { length } = checkUncompressedLength(input, options);
    assertOutputSpace(input, output, length);
    const decoded = oracleOrCorrupt(input);
    output.set(decoded);
    return decoded.length;
  },
};

async function failures(codec: SnappyCodec, inputs?: ConformanceInputs): Promise<string[]> {
  const failed: string[] = [];
  for (const check of conformanceChecks(inputs)) {
    try {
      await check.run(codec);
    } catch {
      failed.push(`${check.group}: ${check.name}`);
    }
  }
  return failed;
}

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
    ]);
    expect(await failures(unguarded)).toEqual([
      asyncCheck,
      "calling patterns: async: valid and hostile calls in flight together each get their own answer",
    ]);
    const guarded: SnappyCodec = {
      ...reference,
      compressAsync: async (input) => reference.compress(input),
      uncompressAsync: async (input, options) => reference.uncompress(input, options),
    };
    expect(await failures(guarded)).toEqual([]);
  });

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
        assertBytes(input);
        const mine = new Uint8Array(input);
        return later(() => reference.compress(mine));
      },
      uncompressAsync: (input, options) => {
        assertBytes(input);
        const mine = new Uint8Array(input);
        return later(() => reference.uncompress(mine, options));
      },
    };
    expect(await failures(snapshot)).toEqual([]);
  });

  it("fail a codec that refuses memory it should take: shared, resizable, pooled", async () => {
    const picky = (input: Uint8Array) => {
      assertBytes(input);
      if (input.buffer instanceof SharedArrayBuffer || input.buffer.resizable) {
        throw new SnappyError("INVALID_ARGUMENT", "plain ArrayBuffers only");
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

  it("fail a codec broken at one size the boundary checks are given", async () => {
    // What ts once did: a 4096-byte output held in one literal threw a TypeError.
    const broken: SnappyCodec = {
      ...reference,
      uncompress: (input, options) => {
        const out = reference.uncompress(input, options);
        if (out.length === 4096 && input.length > 4096) throw new TypeError("null.set");
        return out;
      },
    };
    const boundaries = boundarySizes([{ name: "SMALL_OUTPUT", value: 4096 }], {
      maxPowerOfTwo: 1024,
    });
    expect(boundaries.sizes.map((s) => s.size)).toContain(4096);
    expect(await failures(broken, { boundaries })).toEqual([
      "boundary sizes: 4096 B (SMALL_OUTPUT (4096))",
    ]);
    expect(await failures(reference, { boundaries })).toEqual([]);
  });

  it("fail a compress bound undefined at a large size the code names", async () => {
    // stablelib's own bound is 0 above 1,840,700,241 bytes; the contract's goes to 2^32-1.
    const limited: SnappyCodec = {
      ...reference,
      maxCompressedLength: (n) => {
        if (n > 1_840_700_241) throw new SnappyError("INVALID_ARGUMENT", "too large");
        return maxCompressedLength(n);
      },
    };
    const boundaries = boundarySizes([{ name: "LIBRARY_MAX", value: 1_840_700_241 }], {
      maxPowerOfTwo: 1,
    });
    expect(await failures(limited, { boundaries })).toEqual([
      "boundary sizes: over the round-trip sizes: LIBRARY_MAX (1840700241)",
    ]);
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
    // detaching it: the other results survive, but the receiver gets the pool's bytes.
    // Only the buffer-size check catches that.
    const buffers: SnappyCodec = {
      ...reference,
      compress: (input) => Buffer.from(reference.compress(input)),
    };
    expect(await failures(buffers)).toEqual([
      "output ownership: results are plain Uint8Arrays (not Buffers or other subclasses)",
      "output ownership: each result's buffer holds exactly its bytes (offset 0, no slab)",
    ]);
  });

  it("fail an uncompressedLength that does not validate the preamble", async () => {
    const trusting: SnappyCodec = {
      ...reference,
      uncompressedLength: (input) => readUncompressedLength(input).length,
    };
    expect(await failures(trusting)).toEqual([
      "caller-owned output: uncompressedLength reads the declared length and validates it",
    ]);
  });

  it("fail a maxCompressedLength under what compress writes", async () => {
    const tight: SnappyCodec = { ...reference, maxCompressedLength: (n) => n + 4 };
    expect(await failures(tight)).toContain(
      "caller-owned output: maxCompressedLength bounds every compressed size",
    );
  });

  it("fail a compressInto without maxCompressedLength", async () => {
    const { maxCompressedLength: _, ...unsized } = reference;
    expect(await failures(unsized)).toEqual([
      "caller-owned output: compressInto writes compress's bytes and nothing past them",
      "caller-owned output: compressInto refuses too small or overlapping output before writing",
    ]);
  });

  it("fail a compressInto that writes past the length it returns", async () => {
    const spill: SnappyCodec = {
      ...reference,
      compressInto: (input, output) => {
        const written = reference.compressInto!(input, output);
        output[written] = 0;
        return written;
      },
    };
    expect(await failures(spill)).toEqual([
      "caller-owned output: compressInto writes compress's bytes and nothing past them",
    ]);
  });

  /** A literal-only compressInto that checks only the output's size, and only after `early`. */
  const sizeOnly =
    (early: (stream: Uint8Array, output: Uint8Array) => void) =>
    (input: Uint8Array, output: Uint8Array) => {
      const stream = literalStream(input);
      early(stream, output);
      if (output.length < maxCompressedLength(input.length)) {
        throw new SnappyError("OUTPUT_TOO_SMALL", "too small");
      }
      output.set(stream);
      return stream.length;
    };

  it("fail a compressInto that writes before refusing a small output", async () => {
    const eager: SnappyCodec = {
      ...reference,
      compressInto: sizeOnly((stream, output) =>
        output.set(stream.subarray(0, Math.min(stream.length, output.length))),
      ),
    };
    expect(await failures(eager)).toContain(
      "caller-owned output: compressInto refuses too small or overlapping output before writing",
    );
  });

  it("fail a compressInto that lets output overlap input", async () => {
    const overlapping: SnappyCodec = { ...reference, compressInto: sizeOnly(() => {}) };
    expect(await failures(overlapping)).toEqual([
      "caller-owned output: compressInto refuses too small or overlapping output before writing",
    ]);
  });

  it("fail an uncompressInto that clears the whole output", async () => {
    const clearing: SnappyCodec = {
      ...reference,
      uncompressInto: (input, output, options?: UncompressOptions) => {
        output.fill(0);
        return reference.uncompressInto!(input, output, options);
      },
    };
    const failed = await failures(clearing);
    expect(failed).toContain(
      "caller-owned output: uncompressInto decodes exactly and writes nothing past the length",
    );
    expect(failed).toContain(
      "caller-owned output: uncompressInto rejects every hostile case, within the declared length",
    );
  });

  it("fail an uncompressInto that trusts the preamble", async () => {
    const trusting: SnappyCodec = {
      ...reference,
      uncompressInto: (input, output) => {
        const { length } = readUncompressedLength(input);
        if (output.length < length) throw new SnappyError("OUTPUT_TOO_SMALL", "too small");
        output.fill(0, 0, length);
        return length;
      },
    };
    const failed = await failures(trusting);
    expect(failed).toContain(
      "caller-owned output: uncompressInto rejects every hostile case, within the declared length",
    );
    expect(failed).toContain(
      "caller-owned output: uncompressInto agrees with the spec on mutated input",
    );
  });

  it("fail an uncompressInto that decodes what fits into a small output", async () => {
    const truncating: SnappyCodec = {
      ...reference,
      uncompressInto: (input, output, options) => {
        const decoded = reference.uncompress(input, options);
        output.set(decoded.subarray(0, output.length));
        return decoded.length;
      },
    };
    expect(await failures(truncating)).toContain(
      "caller-owned output: uncompressInto refuses too small or overlapping output before writing",
    );
  });

  it("fail a codec with bad metadata", async () => {
    expect(await failures({ ...reference, library: "unknown" })).toEqual([
      "contract: declares contractVersion 1, a name, its library@version and runtime",
    ]);
  });
});

/** The reference codec as an adapter module: a raw backend and one variant. */
const referenceModule = {
  createCodec: async () => reference,
  createRaw: async () => ({
    library: reference.library,
    compress: literalStream,
    uncompress: oracleUncompress,
  }),
  createVariants: async (): Promise<SnappyCodec[]> => [{ ...reference, name: "reference-copy" }],
};
const installed = (name: string) => `${name}@1.0.0`;

/** What fails when `module` is checked as the adapter in folder `id`. */
async function moduleFailures(module: Partial<AdapterModule>, id = "reference"): Promise<string[]> {
  const loaded = await loadModule(module);
  const failed: string[] = [];
  const checks = [
    ...moduleChecks({ id, installed }),
    ...conformanceChecks().map((check) => ({
      ...check,
      run: () => onEveryCodec(check, codecsOf(loaded)),
    })),
  ];
  for (const check of checks) {
    try {
      await check.run(loaded);
    } catch (error) {
      failed.push(`${check.group}: ${check.name}: ${(error as Error).message}`);
    }
  }
  return failed;
}

describe("the adapter module checks", () => {
  it("pass a correct module", async () => {
    expect(await moduleFailures(referenceModule)).toEqual([]);
  });

  it("fail a module without createRaw", async () => {
    const { createRaw: _, ...partial } = referenceModule;
    await expect(moduleFailures(partial)).rejects.toThrow(/createCodec and createRaw/);
  });

  it("fail a codec named other than its folder", async () => {
    expect(await moduleFailures(referenceModule, "refrence")).toEqual([
      expect.stringMatching(/^adapter module: the codec's name is the package folder's id: /),
    ]);
  });

  it("fail a codec naming another version than the one installed", async () => {
    const stale = {
      ...referenceModule,
      createCodec: async () => ({ ...reference, library: "literal-only@0.9.0" }),
    };
    const failed = await moduleFailures(stale);
    expect(failed).toContainEqual(
      expect.stringMatching(
        /names the version of the backend package it loaded: .*literal-only@1\.0\.0 is what is installed/,
      ),
    );
  });

  it("fail variants that are misnamed, repeated or another library", async () => {
    const variants = (list: Partial<SnappyCodec>[]) => ({
      ...referenceModule,
      createVariants: async () => list.map((v) => ({ ...reference, ...v })),
    });
    const check =
      "adapter module: variants: each named <id>-<setting>, distinct, same library and runtime";
    for (const bad of [
      [{ name: "copy" }],
      [{ name: "reference-copy" }, { name: "reference-copy" }],
      [{ name: "reference-copy", library: "other@1.0.0" }],
    ]) {
      expect((await moduleFailures(variants(bad))).map((f) => f.slice(0, check.length))).toEqual([
        check,
      ]);
    }
  });

  it("run every codec check on each variant too, naming the variant that fails", async () => {
    const shared = new Uint8Array(1 << 16);
    const aliasing: SnappyCodec = {
      ...reference,
      name: "reference-pooled",
      uncompress: (input, options) => {
        const out = reference.uncompress(input, options);
        if (out.length > shared.length) return out;
        shared.set(out);
        return shared.subarray(0, out.length);
      },
    };
    const loaded = await loadModule({ ...referenceModule, createVariants: async () => [aliasing] });
    const ownership = conformanceChecks().find((c) => c.name.startsWith("results are fresh"))!;
    await expect(onEveryCodec(ownership, codecsOf(loaded))).rejects.toThrow(/^reference-pooled: /);
    await expect(onEveryCodec(ownership, [reference])).resolves.toBeUndefined();
  });

  it("fail a raw backend that writes a private format or names another library", async () => {
    const identity = {
      ...referenceModule,
      createRaw: async () => ({
        library: reference.library,
        compress: (x: Uint8Array) => x.slice(),
        uncompress: (x: Uint8Array) => x.slice(),
      }),
    };
    const renamed = {
      ...referenceModule,
      createRaw: async () => ({
        ...(await referenceModule.createRaw()),
        library: "literal-only@2.0.0",
      }),
    };
    const check =
      "adapter module: createRaw: names the same library, writes Snappy and reads it back";
    for (const bad of [identity, renamed]) {
      expect((await moduleFailures(bad)).map((f) => f.slice(0, check.length))).toEqual([check]);
    }
  });
});

// And the suite as adapters run it (with `setup`: `module` needs a package folder), on the
// reference codec.
runConformance({ setup: () => reference });

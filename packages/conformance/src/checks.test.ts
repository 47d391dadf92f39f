// The suite tested against codecs we know to be right or wrong: a check that a broken codec
// passes is a check that cannot fail.
import {
  assertBytes,
  checkUncompressedLength,
  readUncompressedLength,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { conformanceChecks } from "./checks.js";
import { oracleUncompress } from "./oracle.js";
import { literalStream } from "./streams.js";
import { runConformance } from "./suite.js";

/** A correct codec: stores literals only, decodes with the oracle behind the core guard. */
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
    try {
      return oracleUncompress(input);
    } catch (error) {
      throw new SnappyError("CORRUPT_INPUT", (error as Error).message);
    }
  },
};

async function failures(codec: SnappyCodec): Promise<string[]> {
  const failed: string[] = [];
  for (const check of conformanceChecks()) {
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
    const wrongBytes: SnappyCodec = { ...reference, compressAsync: async (input) => input.slice() };
    const unguarded: SnappyCodec = {
      ...reference,
      uncompressAsync: async (input) => oracleUncompress(input),
    };
    const asyncCheck = "contract: async API (where offered) gives the sync API's bytes and errors";
    expect(await failures(wrongBytes)).toEqual([asyncCheck]);
    expect(await failures(unguarded)).toEqual([asyncCheck]);
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

  it("fail a codec with bad metadata", async () => {
    expect(await failures({ ...reference, library: "unknown" })).toEqual([
      "contract: declares contractVersion 1, a name, its library@version and runtime",
    ]);
  });
});

// And the suite as adapters run it, on the reference codec.
runConformance({ setup: () => reference });

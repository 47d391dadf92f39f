// Self-tests of the checks of what callers pass: each fails a codec that makes the mistake
// it is about (the ones adapters made before core read bytes and options as it does now).
import {
  checkUncompressedLength,
  isSnappyError,
  maxCompressedLength,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { literalStream } from "./corpus.js";
import { failures, reference } from "./test/reference.js";

const GROUP = "what callers pass";

/** The limit as the old guard read it: through the prototype chain, arrays welcome. */
function looseLimit(input: Uint8Array, options?: { maxLength?: number }): void {
  const declared = reference.uncompressedLength(input, { maxLength: 2 ** 32 });
  const limit = options?.maxLength ?? 256 * 2 ** 20;
  if (declared > limit)
    throw new SnappyError("length-over-limit", "over maxLength", { declared, limit });
}

describe("the checks of what callers pass", () => {
  it("pass the reference codec", async () => {
    expect((await failures(reference)).filter((f) => f.startsWith(GROUP))).toEqual([]);
  });

  it("fail a codec that calls the caller's subarray on its input", async () => {
    const viaMethods: SnappyCodec = {
      ...reference,
      compress: (input) => literalStream(input.subarray(0, input.length)),
    };
    expect(await failures(viaMethods)).toContain(
      `${GROUP}: Uint8Array subclasses as input, in every operation`,
    );
  });

  it("fail a compressInto that measures what it wrote with the output's subarray", async () => {
    const measured: SnappyCodec = {
      ...reference,
      compressInto: (input, output) =>
        output.subarray(0, reference.compressInto!(input, output)).length,
    };
    expect(await failures(measured)).toEqual([
      `${GROUP}: Uint8Array subclasses as the output of *Into`,
    ]);
  });

  it("fail a codec that reads options through the prototype chain, or takes arrays", async () => {
    const loose = (options: unknown) =>
      options === undefined
        ? undefined
        : { maxLength: (options as { maxLength?: number }).maxLength };
    const polluted: SnappyCodec = {
      ...reference,
      uncompress: (input, options) => {
        looseLimit(input, options);
        return reference.uncompress(input, loose(options));
      },
      uncompressedLength: (input, options) => {
        looseLimit(input, options);
        return checkUncompressedLength(input, { maxLength: 2 ** 32 }).length;
      },
    };
    expect((await failures(polluted)).filter((f) => f.startsWith(GROUP))).toEqual([
      `${GROUP}: a polluted Object.prototype neither lifts maxLength nor breaks a call`,
      `${GROUP}: an array where the options go is INVALID_ARGUMENT`,
    ]);
  });

  it("fail a codec whose async path words a detached input differently", async () => {
    const other: SnappyCodec = {
      ...reference,
      compressAsync: async (input) => {
        try {
          return reference.compress(input);
        } catch (error) {
          throw isSnappyError(error, "INVALID_ARGUMENT")
            ? new SnappyError("bad-argument", "input is not usable")
            : error;
        }
      },
    };
    expect(await failures(other)).toEqual([
      `${GROUP}: a detached input is INVALID_ARGUMENT, the same in every path`,
    ]);
  });

  it("fail a compressInto that takes a detached output for a short one", async () => {
    const careless: SnappyCodec = {
      ...reference,
      compressInto: (input, output) => {
        const need = maxCompressedLength(input.length);
        // A detached output reads as empty: taken for one too short.
        if (output.length === 0 && need > 0) {
          throw new SnappyError("output-too-small", `needs ${need}`, { length: 0, limit: need });
        }
        return reference.compressInto!(input, output);
      },
    };
    expect(await failures(careless)).toEqual([
      `${GROUP}: a detached input is INVALID_ARGUMENT, the same in every path`,
    ]);
  });
});

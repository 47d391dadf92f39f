// Self-tests of the caller-owned-output checks (uncompressedLength, maxCompressedLength,
// compressInto, uncompressInto) against codecs broken on purpose.
import {
  maxCompressedLength,
  readUncompressedLength,
  type SnappyCodec,
  SnappyError,
  type UncompressOptions,
} from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { literalStream } from "./corpus.js";
import { failures, reference } from "./test/reference.js";

describe("the caller-owned output checks", () => {
  it("fail an uncompressedLength that does not validate the preamble", async () => {
    const trusting: SnappyCodec = {
      ...reference,
      uncompressedLength: (input) => readUncompressedLength(input).length,
    };
    expect(await failures(trusting)).toEqual([
      "rejects bad input with SnappyError: options it does not know, and non-objects",
      "caller-owned output: uncompressedLength reads the declared length and validates it",
      "what callers pass: a polluted Object.prototype neither lifts maxLength nor breaks a call",
      "what callers pass: an array where the options go is INVALID_ARGUMENT",
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
    // The type requires it; a codec from plain JavaScript may still lack it.
    expect(await failures(unsized as SnappyCodec)).toEqual([
      "caller-owned output: compressInto writes compress's bytes and nothing past them",
      "caller-owned output: compressInto refuses too small output before writing; overlap refused or exact",
      "what callers pass: Uint8Array subclasses as input, in every operation",
      "what callers pass: Uint8Array subclasses as the output of *Into",
      "what callers pass: a detached input is INVALID_ARGUMENT, the same in every path",
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
        throw new SnappyError("output-too-small", "too small");
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
      "caller-owned output: compressInto refuses too small output before writing; overlap refused or exact",
    );
  });

  it("fail a compressInto that writes an overlapping output as it reads the input", async () => {
    // One literal, its bytes moved one at a time: with the output after the input, each
    // write lands on input bytes not read yet.
    const streaming: SnappyCodec = {
      ...reference,
      compressInto: (input, output) => {
        const header = literalStream(input).subarray(0, -input.length || undefined);
        if (output.length < maxCompressedLength(input.length)) {
          throw new SnappyError("output-too-small", "too small");
        }
        output.set(header);
        for (let i = 0; i < input.length; i++) output[header.length + i] = input[i]!;
        return header.length + input.length;
      },
    };
    expect(await failures(streaming)).toContain(
      "caller-owned output: compressInto refuses too small output before writing; overlap refused or exact",
    );
  });

  it("accept an into-call that decodes an overlapping output as if the input were copied first", async () => {
    const copying: SnappyCodec = {
      ...reference,
      compressInto: (input, output) => reference.compressInto!(input.slice(), output),
      uncompressInto: (input, output, options) =>
        reference.uncompressInto!(input.slice(), output, options),
    };
    const failed = await failures(copying);
    expect(failed.filter((name) => name.includes("overlap"))).toEqual([]);
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
        if (output.length < length) throw new SnappyError("output-too-small", "too small");
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
      "caller-owned output: uncompressInto refuses too small output before writing; overlap refused or exact",
    );
  });
});

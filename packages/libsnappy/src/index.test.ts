import { createRequire } from "node:module";
import { backendRejection, snappyErrorOf, thrown } from "@snappykit/conformance";
import { isSnappyError } from "@snappykit/core";
import { crc32c, decodeFramed, maskChecksum, STREAM_IDENTIFIER } from "@snappykit/framing";
import { describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { createRaw } from "./raw.js";

// What conformance.test.ts does not cover: which snappy line this is, the Buffer-only
// binding, and what the raw binding does with bad input.
const text = new TextEncoder().encode("hello hello hello hello hello world");
// libsnappy 1.1.7's bytes for `text`.
const textCompressed = Uint8Array.from([
  0x23, 0x14, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x5e, 0x06, 0x00, 0x10, 0x77, 0x6f, 0x72, 0x6c,
  0x64,
]);

const codec = await createCodec();

describe("@snappykit/libsnappy", () => {
  it("loads snappy@6, Google's libsnappy, and writes its bytes", () => {
    expect(codec.library).toMatch(/^snappy@6\./);
    expect(codec.compress(text)).toEqual(textCompressed);
  });

  it("accepts plain Uint8Arrays although the binding itself only takes Buffers", () => {
    const snappy = createRequire(import.meta.url)("snappy") as {
      uncompressSync(input: unknown, options: { asBuffer: true }): Buffer;
    };
    expect(() => snappy.uncompressSync(textCompressed, { asBuffer: true })).toThrow(/Buffer/);
    expect(codec.uncompress(textCompressed)).toEqual(Uint8Array.from(text));
    // The contract's results are plain Uint8Arrays: the binding's Buffer is re-viewed.
    expect(Object.getPrototypeOf(codec.uncompress(textCompressed))).toBe(Uint8Array.prototype);
  });

  it("maps libsnappy's rejections to CORRUPT_INPUT with its message as the cause", () => {
    // Declares 6 bytes, body yields 3.
    backendRejection(codec, Uint8Array.from([0x06, 0x08, 0x01, 0x02, 0x03]));
    // A copy with offset 2 before any output exists; nothing at all.
    snappyErrorOf(() => codec.uncompress(Uint8Array.from([0x05, 0x01, 0x02])), "CORRUPT_INPUT");
    snappyErrorOf(() => codec.uncompress(new Uint8Array(0)), "CORRUPT_INPUT");
  });

  it("exposes the raw binding, unguarded: libsnappy's own errors", async () => {
    const raw = await createRaw();
    const error = thrown(() => raw.uncompress(Uint8Array.from([0x05, 0x01, 0x02])));
    expect(isSnappyError(error)).toBe(false);
    expect(String(error)).toMatch(/Invalid input/);
  });
});

describe("a literal length libsnappy 1.1.7 wraps to 0", () => {
  // Declares 0 bytes; one literal whose 4-byte length field is ffffffff (2^32 bytes, past
  // the input). libsnappy adds 1 in 32 bits and decodes 0 bytes; the stream is invalid.
  const wraps = Uint8Array.of(0x00, 0xfc, 0xff, 0xff, 0xff, 0xff);

  it("is what the library itself accepts", async () => {
    expect((await createRaw()).uncompress(wraps).length).toBe(0);
  });

  it("is CORRUPT_INPUT with a reason, sync, async and framed", async () => {
    const error = snappyErrorOf(() => codec.uncompress(wraps), "CORRUPT_INPUT");
    expect(error.reason).toBe("literal-past-input");
    await expect(codec.uncompressAsync!(wraps)).rejects.toMatchObject({
      code: "CORRUPT_INPUT",
      reason: "literal-past-input",
    });
    // The stream in a framed compressed chunk, under the CRC of the 0 bytes it declares.
    const framed = new Uint8Array(STREAM_IDENTIFIER.length + 8 + wraps.length);
    framed.set(STREAM_IDENTIFIER);
    const chunk = new DataView(framed.buffer, STREAM_IDENTIFIER.length);
    chunk.setUint32(0, (4 + wraps.length) << 8, true);
    chunk.setUint32(4, maskChecksum(crc32c(new Uint8Array(0))), true);
    framed.set(wraps, STREAM_IDENTIFIER.length + 8);
    const inFrame = snappyErrorOf(() => decodeFramed(codec, framed), "CORRUPT_INPUT");
    expect(inFrame.reason).toBe("literal-past-input");
  });

  it("still decodes valid streams holding those five bytes as literal data", () => {
    const data = Uint8Array.of(0xfc, 0xff, 0xff, 0xff, 0xff, 0x00);
    expect(codec.uncompress(codec.compress(data))).toEqual(data);
  });
});

// Bad arguments fail at the call, with INVALID_ARGUMENT, whether the work that follows is
// synchronous or not, and an option the library does not know is refused, not ignored.
import { describe, expect, it } from "vitest";
import { ByteReader, decodeFramed, encodeFramed, FrameDecoder, FrameEncoder } from "./index.js";
import { codecs, codeOf, structuredBytes } from "./test/helpers.js";

const codec = codecs[0]!;
const data = structuredBytes(1000);
const framed = encodeFramed(codec, data);

describe("arguments", () => {
  it("ByteReader throws at once for a source that is no byte source", () => {
    for (const bad of [null, undefined, 42, {}]) {
      expect(
        codeOf(() => new ByteReader(bad as never)),
        String(bad),
      ).toBe("INVALID_ARGUMENT");
    }
  });

  it("refuses options it does not know, and a value where the options go", () => {
    const calls: [string, () => unknown][] = [
      ["decodeFramed maxlength", () => decodeFramed(codec, framed, { maxlength: 10 } as never)],
      ["decodeFramed number", () => decodeFramed(codec, framed, 10 as never)],
      ["FrameDecoder", () => new FrameDecoder(codec, { verifyChecksum: false } as never)],
      ["encodeFramed", () => encodeFramed(codec, data, { chunksize: 100 } as never)],
      ["FrameEncoder", () => new FrameEncoder(codec, { chunk: 100 } as never)],
    ];
    for (const [what, call] of calls) expect(codeOf(call), what).toBe("INVALID_ARGUMENT");
    // The options each one does know still pass.
    expect(decodeFramed(codec, framed, { maxLength: 1000, verifyChecksums: true })).toHaveLength(
      1000,
    );
  });
});

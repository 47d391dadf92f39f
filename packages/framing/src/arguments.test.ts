// Bad arguments fail at the call, with INVALID_ARGUMENT, whether the work that follows is
// synchronous or not, and an option the library does not know is refused, not ignored.
import { describe, expect, it } from "vitest";
import {
  ByteReader,
  decodeFramed,
  decodeSszSnappy,
  encodeFramed,
  encodeSszSnappy,
  FrameDecoder,
  FrameEncoder,
} from "./index.js";
import { codecs, codeOf, structuredBytes } from "./test/helpers.js";

const codec = codecs[0]!;
const data = structuredBytes(1000);
const framed = encodeFramed(codec, data);
const ssz = encodeSszSnappy(codec, data);
const bounds = { minSize: 0, maxSize: 1000 };

describe("arguments", () => {
  it("decodeSszSnappy throws at once for a source that is no byte source", () => {
    // It once returned a promise that rejected later, unlike the Uint8Array form.
    for (const bad of [null, undefined, 42, {}]) {
      expect(
        codeOf(() => decodeSszSnappy(codec, bad as never, bounds)),
        String(bad),
      ).toBe("INVALID_ARGUMENT");
    }
    expect(codeOf(() => decodeSszSnappy(codec, [ssz], null as never))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => new ByteReader(null as never))).toBe("INVALID_ARGUMENT");
  });

  it("refuses options it does not know, and a value where the options go", () => {
    const calls: [string, () => unknown][] = [
      ["decodeFramed maxlength", () => decodeFramed(codec, framed, { maxlength: 10 } as never)],
      ["decodeFramed number", () => decodeFramed(codec, framed, 10 as never)],
      ["FrameDecoder", () => new FrameDecoder(codec, { verifyChecksum: false } as never)],
      ["encodeFramed", () => encodeFramed(codec, data, { chunksize: 100 } as never)],
      ["FrameEncoder", () => new FrameEncoder(codec, { chunk: 100 } as never)],
      ["encodeSszSnappy", () => encodeSszSnappy(codec, data, { maxPayload: 10 } as never)],
      ["decodeSszSnappy", () => decodeSszSnappy(codec, ssz, { ...bounds, maxsize: 5 } as never)],
    ];
    for (const [what, call] of calls) expect(codeOf(call), what).toBe("INVALID_ARGUMENT");
    // The options each one does know still pass.
    expect(decodeFramed(codec, framed, { maxLength: 1000, verifyChecksums: true })).toHaveLength(
      1000,
    );
    expect(
      encodeSszSnappy(codec, data, { chunkSize: 500, maxPayloadSize: 1000 }).length,
    ).toBeGreaterThan(0);
    expect(
      decodeSszSnappy(codec, ssz, { ...bounds, maxPayloadSize: 1000, verifyChecksums: false }),
    ).toHaveLength(1000);
  });
});

import { createRequire } from "node:module";
import { snappyErrorOf, thrown } from "@snappykit/conformance";
import { isSnappyError, type SnappyCodec, type SnappyErrorCode } from "@snappykit/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createCodec, createRaw } from "./index.js";

const installed = createRequire(import.meta.url)("snappy/package.json") as {
  version: string;
};

const text = new TextEncoder().encode("hello hello hello hello hello world");
// libsnappy 1.1.7's bytes for `text` (the Rust `snap` crate writes the same).
const textCompressed = Uint8Array.from([
  0x23, 0x14, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x5e, 0x06, 0x00, 0x10, 0x77, 0x6f, 0x72, 0x6c,
  0x64,
]);

function expectCode(fn: () => unknown, code: SnappyErrorCode): Error {
  const error = snappyErrorOf(fn);
  expect(error.code, error.message).toBe(code);
  return error;
}

let codec: SnappyCodec;
beforeAll(async () => {
  codec = await createCodec();
});

describe("@snappykit/libsnappy", () => {
  it("names the snappy@6 binding it really loaded", () => {
    expect(codec.name).toBe("libsnappy");
    expect(codec.runtime).toBe("native");
    expect(codec.contractVersion).toBe(1);
    expect(codec.library).toBe(`snappy@${installed.version}`);
    expect(installed.version.startsWith("6.")).toBe(true);
  });

  it("writes libsnappy's bytes and reads them back", () => {
    expect(codec.compress(text)).toEqual(Uint8Array.from(textCompressed));
    expect(codec.uncompress(textCompressed)).toEqual(Uint8Array.from(text));
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

  it("maps the binding's rejections to CORRUPT_INPUT with its message as the cause", () => {
    // Declares 6 bytes, body yields 3.
    const short = Uint8Array.from([0x06, 0x08, 0x01, 0x02, 0x03]);
    // A copy with offset 2 before any output exists.
    const garbage = Uint8Array.from([0x05, 0x01, 0x02]);
    for (const input of [garbage, new Uint8Array(0)]) {
      expectCode(() => codec.uncompress(input), "CORRUPT_INPUT");
    }
    const error = expectCode(() => codec.uncompress(short), "CORRUPT_INPUT");
    expect(error.message).toContain(`${codec.library} rejected the stream`);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("exposes the raw binding, unguarded, with the same output", async () => {
    const raw = await createRaw();
    expect(raw.library).toBe(codec.library);
    expect(raw.compress(text)).toEqual(Buffer.from(textCompressed));
    expect(raw.uncompress(textCompressed)).toEqual(Buffer.from(text));
    // Raw errors are the binding's own, not SnappyError.
    const rawError = thrown(() => raw.uncompress(Uint8Array.from([0x05, 0x01, 0x02])));
    expect(isSnappyError(rawError)).toBe(false);
    expect(String(rawError)).toMatch(/Invalid input/);
  });
});

import { describe, expect, it } from "vitest";
import { isSnappyError, SnappyError } from "./errors.js";
import { type Backend, guardedCodec } from "./guarded.js";

// "abcd" as one literal, declaring 4 bytes.
const abcd = Uint8Array.of(4, 0x0c, 97, 98, 99, 100);

function backend(overrides: Partial<Backend> = {}): Backend & { calls: number } {
  const b = {
    calls: 0,
    name: "test",
    library: "test-lib@1.0.0",
    runtime: "js" as const,
    guard: "length" as const,
    compress: (input: Uint8Array) => input,
    uncompress(_input: Uint8Array, length: number) {
      b.calls++;
      return Uint8Array.of(97, 98, 99, 100).subarray(0, length);
    },
    ...overrides,
  };
  return b;
}

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return "no error";
  } catch (error) {
    return isSnappyError(error) ? error.code : `plain ${String(error)}`;
  }
};

describe("guardedCodec", () => {
  it("passes the declared length to the backend and returns its output", () => {
    const b = backend();
    expect(guardedCodec(b).uncompress(abcd)).toEqual(Uint8Array.of(97, 98, 99, 100));
    expect(b.calls).toBe(1);
  });

  it("'length' guard stops a bomb before the backend is called", () => {
    const b = backend();
    const bomb = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0);
    expect(codeOf(() => guardedCodec(b).uncompress(bomb, { maxLength: 2 ** 32 }))).toBe(
      "CORRUPT_INPUT",
    );
    expect(codeOf(() => guardedCodec(b).uncompress(abcd, { maxLength: 3 }))).toBe("LENGTH_LIMIT");
    expect(b.calls).toBe(0);
  });

  it("'stream' guard stops an invalid stream the length guard lets through", () => {
    const truncated = Uint8Array.of(8, 0x0c, 97, 98, 99, 100);
    const trusting = backend({ guard: "stream" });
    expect(codeOf(() => guardedCodec(trusting).uncompress(truncated))).toBe("CORRUPT_INPUT");
    expect(trusting.calls).toBe(0);
  });

  it("maps backend errors and wrong-length output to SnappyError", () => {
    const throwing = backend({
      uncompress: () => {
        throw new Error("boom");
      },
      compress: () => {
        throw new TypeError("bad");
      },
    });
    expect(() => guardedCodec(throwing).uncompress(abcd)).toThrow(
      /test-lib@1.0.0 rejected the stream: boom/,
    );
    expect(codeOf(() => guardedCodec(throwing).compress(abcd))).toBe("BACKEND_ERROR");
    expect(codeOf(() => guardedCodec(throwing).compress("x" as never))).toBe("INVALID_ARGUMENT");
    const short = backend({ uncompress: () => new Uint8Array(3) });
    expect(() => guardedCodec(short).uncompress(abcd)).toThrow(/produced 3 bytes/);
    const own = backend({
      uncompress: () => {
        throw new SnappyError("BACKEND_ERROR", "out of memory");
      },
    });
    expect(codeOf(() => guardedCodec(own).uncompress(abcd))).toBe("BACKEND_ERROR");
  });

  it("offers async methods only when the backend has them, with the same guards", async () => {
    expect(guardedCodec(backend()).compressAsync).toBeUndefined();
    const codec = guardedCodec(
      backend({
        compressAsync: async (input) => input,
        uncompressAsync: async () => new Uint8Array(4),
      }),
    );
    expect(await codec.uncompressAsync!(abcd)).toHaveLength(4);
    await expect(codec.uncompressAsync!(abcd, { maxLength: 1 })).rejects.toSatisfy((e) =>
      isSnappyError(e, "LENGTH_LIMIT"),
    );
    expect(await codec.compressAsync!(abcd)).toBe(abcd);
  });
});

// What conformance.test.ts does not cover: how the library is found, what happens where
// there is no FFI or no library, and that the into-calls write the caller's memory itself.
import { execFileSync } from "node:child_process";
import { snappyErrorOf } from "@snappykit/conformance";
import { isSnappyError } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { createCodec, LIBRARY_ENV, VERSION_ENV } from "./index.js";
import { createRaw } from "./raw.js";

const text = new TextEncoder().encode("attestation ".repeat(500));
const library = process.env[LIBRARY_ENV]!;
const version = process.env[VERSION_ENV]!;

describe("@snappykit/ffi", () => {
  it("opens the library the environment names, through node:ffi", async () => {
    const codec = await createCodec();
    expect(codec.library).toBe(`libsnappy@${version} (node:ffi)`);
    expect(codec.runtime).toBe("native");
  });

  it("opens an injected library, with its version given or unknown", async () => {
    expect((await createCodec({ library, version: "9.9.9" })).library).toBe(
      "libsnappy@9.9.9 (node:ffi)",
    );
    // tools/libsnappy's file name (libsnappy.so) carries no version: the file is named.
    expect((await createCodec({ library })).library).toMatch(/^libsnappy \(libsnappy\./);
  });

  it("is UNSUPPORTED, naming the path, when the library does not open", async () => {
    await expect(createCodec({ library: "/nonexistent/libsnappy.so.1" })).rejects.toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringContaining("/nonexistent/libsnappy.so.1"),
    });
  });

  it("checks its options", async () => {
    await expect(createCodec({ libary: library } as never)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(createCodec({ library, version: "1.2" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("is UNSUPPORTED, saying so, in a Node without node:ffi", () => {
    // The built module: a child Node cannot load the TypeScript source's .js specifiers.
    const program = `import("${new URL("../dist/index.js", import.meta.url).href}")
      .then((m) => m.createCodec()).then(() => console.log("loaded"),
        (e) => console.log(e.code, e.message))`;
    const out = execFileSync(process.execPath, ["--no-experimental-ffi", "-e", program], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(out).toMatch(/^UNSUPPORTED no FFI: Node .* has no node:ffi/);
  });

  it("writes the same bytes as libsnappy called directly", async () => {
    const [codec, raw] = [await createCodec(), await createRaw()];
    expect(codec.compress(text)).toEqual(raw.compress(text));
  });

  it("decodes into the caller's array, at an offset, without a copy; no compressInto", async () => {
    const codec = await createCodec();
    const wire = codec.compress(text);
    const memory = new Uint8Array(new SharedArrayBuffer(text.length + 16));
    const view = memory.subarray(16);
    expect(codec.uncompressInto!(wire, view)).toBe(text.length);
    expect(memory.subarray(16)).toEqual(text);
    // libsnappy writes past the stream it compresses (its 16-byte literal copies): no
    // compressInto, as the contract forbids that on a caller's array.
    expect(codec.compressInto).toBeUndefined();
  });

  it("refuses a literal length libsnappy wraps to 0, which the library accepts", async () => {
    // Declares 0 bytes; one literal whose 4-byte length field is ffffffff (2^32 bytes).
    const wraps = Uint8Array.of(0x00, 0xfc, 0xff, 0xff, 0xff, 0xff);
    expect((await createRaw()).uncompress(wraps).length).toBe(0);
    const codec = await createCodec();
    expect(snappyErrorOf(() => codec.uncompress(wraps), "CORRUPT_INPUT").reason).toBe(
      "literal-past-input",
    );
    const output = new Uint8Array(0);
    snappyErrorOf(() => codec.uncompressInto!(wraps, output), "CORRUPT_INPUT");
  });

  it("maps libsnappy's status to CORRUPT_INPUT; the raw backend throws it bare", async () => {
    const codec = await createCodec();
    // Declares 6 bytes, body yields 3.
    const short = Uint8Array.from([0x06, 0x08, 0x01, 0x02, 0x03]);
    snappyErrorOf(() => codec.uncompress(short), "CORRUPT_INPUT");
    const raw = await createRaw();
    let error: unknown;
    try {
      raw.uncompress(short);
    } catch (e) {
      error = e;
    }
    expect(isSnappyError(error)).toBe(false);
    expect(String(error)).toMatch(/SNAPPY_INVALID_INPUT/);
  });
});

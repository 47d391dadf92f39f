import { createCodec } from "@snappykit/auto";
import { randomBytes } from "@snappykit/conformance/cases";
import { concatBytes, SnappyError } from "@snappykit/core";
import { getPayload } from "@snappykit/fixtures";
import { Uint8ArrayList } from "uint8arraylist";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  encodeSszSnappy,
  type ResponseChunk,
  ResponseError,
  writeToStream,
} from "./index.js";
import { collect, expectSameBytes } from "./test/helpers.js";

const codec = await createCodec();
const blocks = getPayload("blocks-by-range").items;
const DIGEST = Uint8Array.of(0x4a, 0x26, 0xc5, 0x8b);
const BLOCK = { minSize: 100, maxSize: 10 * 1024 * 1024 };
const byDigest = (d: Uint8Array) =>
  Buffer.from(d).equals(Buffer.from(DIGEST)) ? BLOCK : undefined;

/** `bytes` as libp2p delivers it: Uint8ArrayLists of odd-sized parts. */
function* asLists(bytes: Uint8Array, sizes: number[]): Generator<Uint8ArrayList> {
  let pos = 0;
  for (let i = 0; pos < bytes.length; i++) {
    const list = new Uint8ArrayList();
    for (let k = 0; k < 3 && pos < bytes.length; k++) {
      const n = sizes[(i + k) % sizes.length]!;
      list.append(bytes.subarray(pos, pos + n));
      pos += n;
    }
    yield list;
  }
}

/** A source that counts `return()` calls and can hang forever after `hangAfter` items. */
function tracked(items: Iterable<Uint8Array | Uint8ArrayList>, hangAfter = Infinity) {
  const state = { returned: 0, pulled: 0 };
  const list = [...items];
  const source: AsyncIterable<Uint8Array | Uint8ArrayList> = {
    [Symbol.asyncIterator]() {
      return {
        next: () => {
          if (state.pulled >= hangAfter) return new Promise(() => {});
          const value = list[state.pulled++];
          return Promise.resolve(
            value === undefined ? { done: true, value } : { done: false, value },
          );
        },
        return: () => {
          state.returned++;
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
  return { source, state };
}

let unhandled = 0;
const onUnhandled = () => unhandled++;
beforeEach(() => {
  unhandled = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 20));
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toBe(0);
});

async function responseBytes(
  chunks: Iterable<ResponseChunk | { result: number; message: string }>,
) {
  return concatBytes(await collect(encodeResponse(chunks, { codec })));
}

describe("requests", () => {
  it("round-trip through lists of 1-7 byte parts", async () => {
    const request = new Uint8Array(24).map((_, i) => i);
    const bytes = concatBytes(await collect(encodeRequest(request, { codec })));
    expect(bytes).toEqual(encodeSszSnappy(codec, request));
    const decoded = await decodeRequest(asLists(bytes, [1, 7, 3, 2, 5]), {
      codec,
      bounds: { minSize: 24, maxSize: 24 },
    });
    expect(decoded).toEqual(request);
  });

  it("refuse a bad header, over/under size, trailing bytes and a truncated body", async () => {
    const request = new Uint8Array(24);
    const bytes = encodeSszSnappy(codec, request);
    const reason = (source: Iterable<Uint8Array>, bounds = { minSize: 24, maxSize: 24 }) =>
      decodeRequest(source, { codec, bounds }).then(
        () => "ok",
        (e: SnappyError) => e.reason,
      );
    expect(await reason([bytes], { minSize: 0, maxSize: 23 })).toBe("length-over-limit");
    expect(await reason([bytes], { minSize: 25, maxSize: 30 })).toBe("length-under-minimum");
    expect(await reason([bytes, Uint8Array.of(0)])).toBe("trailing-bytes");
    expect(await reason([bytes.subarray(0, bytes.length - 1)])).toBe("truncated");
    expect(await reason([Uint8Array.of(0x98, 0x00)])).toBe("non-minimal-prefix");
  });
});

describe("responses", () => {
  const chunks = blocks.map((ssz) => ({ ssz, context: DIGEST }));

  it("round-trip 32 blocks with context bytes through lists of 1-7 byte parts", async () => {
    const bytes = await responseBytes(chunks);
    const decoded = await collect(
      decodeResponse(asLists(bytes, [1, 2, 3, 4, 5, 6, 7]), {
        codec,
        bounds: byDigest,
        maxChunks: 32,
      }),
    );
    expectSameBytes(
      decoded.map((c) => c.ssz),
      blocks,
    );
    expect(decoded.every((c) => Buffer.from(c.context!).equals(Buffer.from(DIGEST)))).toBe(true);
  });

  it("without context bytes, with fixed bounds", async () => {
    const items = blocks.slice(0, 3).map((ssz) => ({ ssz }));
    const decoded = await collect(
      decodeResponse([await responseBytes(items)], { codec, bounds: BLOCK }),
    );
    expect(decoded).toEqual(items);
  });

  it("end with a ResponseError carrying the ErrorMessage", async () => {
    const bytes = await responseBytes([
      chunks[0]!,
      { result: 3, message: "blocks pruned" },
      chunks[1]!, // never encoded: an error is the last chunk
    ]);
    const got: Uint8Array[] = [];
    let error: unknown;
    try {
      for await (const c of decodeResponse([bytes], { codec, bounds: byDigest })) got.push(c.ssz);
    } catch (e) {
      error = e;
    }
    expectSameBytes(got, [blocks[0]!]);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).result).toBe(3);
    expect((error as ResponseError).text).toBe("blocks pruned");
    const long = await responseBytes([{ result: 2, message: "x".repeat(300) }]);
    await expect(
      collect(decodeResponse([long], { codec, bounds: byDigest })),
    ).rejects.toMatchObject({
      result: 2,
      text: "x".repeat(256),
    });
    // An error result with no ErrorMessage at all.
    await expect(
      collect(decodeResponse([Uint8Array.of(1)], { codec, bounds: byDigest })),
    ).rejects.toMatchObject({
      result: 1,
      text: "",
    });
  });

  it("name each fault with its reason", async () => {
    const reason = (bytes: Uint8Array, maxChunks?: number) =>
      collect(decodeResponse([bytes], { codec, bounds: byDigest, maxChunks })).then(
        () => "ok",
        (e: SnappyError) => e.reason,
      );
    const two = await responseBytes(chunks.slice(0, 2));
    expect(await reason(two, 2)).toBe("ok");
    expect(await reason(two, 1)).toBe("too-many-chunks");
    expect(await reason(concatBytes([Uint8Array.of(7), two]))).toBe("bad-result-code");
    const other = await responseBytes([{ ssz: blocks[0]!, context: Uint8Array.of(1, 2, 3, 4) }]);
    expect(await reason(other)).toBe("unknown-context-bytes");
    expect(await reason(two.subarray(0, 3))).toBe("truncated");
    expect(await reason(two.subarray(0, two.length - 1))).toBe("truncated");
    const tooLong = concatBytes([Uint8Array.of(2), encodeSszSnappy(codec, new Uint8Array(257))]);
    expect(await reason(tooLong)).toBe("length-over-limit");
    const small = await responseBytes([{ ssz: new Uint8Array(10), context: DIGEST }]);
    expect(await reason(small)).toBe("length-under-minimum");
    const error = await collect(
      decodeResponse([two], { codec, bounds: byDigest, maxChunks: 1 }),
    ).catch((e: SnappyError) => e);
    expect(error).toMatchObject({ code: "LENGTH_LIMIT", limit: 1 });
  });

  it("close the source when the consumer breaks", async () => {
    const { source, state } = tracked(asLists(await responseBytes(chunks), [5000]));
    let n = 0;
    for await (const _ of decodeResponse(source, { codec, bounds: byDigest })) if (++n === 3) break;
    expect(n).toBe(3);
    expect(state.returned).toBe(1);
    expect(state.pulled).toBeLessThan(30);
  });

  it("close the source on a decoding error", async () => {
    const bytes = await responseBytes(chunks.slice(0, 4));
    const { source, state } = tracked([bytes.subarray(0, 2000), Uint8Array.of(9), bytes]);
    await expect(collect(decodeResponse(source, { codec, bounds: byDigest }))).rejects.toThrow(
      SnappyError,
    );
    expect(state.returned).toBe(1);
  });

  it("pass on the source's own error", async () => {
    async function* failing() {
      yield (await responseBytes(chunks.slice(0, 1))).subarray(0, 100);
      throw new Error("stream reset");
    }
    await expect(collect(decodeResponse(failing(), { codec, bounds: byDigest }))).rejects.toThrow(
      "stream reset",
    );
  });

  it("abort on the signal, also while the source hangs, and close it", async () => {
    const bytes = await responseBytes(chunks.slice(0, 4));
    const { source, state } = tracked([bytes.subarray(0, 5000)], 1);
    const controller = new AbortController();
    const pending = collect(
      decodeResponse(source, { codec, bounds: byDigest, signal: controller.signal }),
    );
    setTimeout(() => controller.abort(new Error("timed out")), 20);
    await expect(pending).rejects.toThrow("timed out");
    expect(state.returned).toBe(1);
    const already = AbortSignal.abort();
    const { source: s2, state: st2 } = tracked([bytes]);
    await expect(
      collect(decodeResponse(s2, { codec, bounds: byDigest, signal: already })),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(st2.returned).toBe(1);
  });

  it("close the chunk source when the encoder's consumer stops", async () => {
    let closed = false;
    async function* produce() {
      try {
        for (const c of chunks) yield c;
      } finally {
        closed = true;
      }
    }
    for await (const _ of encodeResponse(produce(), { codec })) break;
    expect(closed).toBe(true);
  });

  it("refuse bad options and sources", async () => {
    await expect(
      collect(decodeResponse([], { codec, bounds: BLOCK, maxChunks: -1 })),
    ).rejects.toThrow(/maxChunks/);
    await expect(collect(decodeResponse(42 as never, { codec, bounds: BLOCK }))).rejects.toThrow(
      /source/,
    );
    await expect(collect(encodeResponse([{ result: 5, message: "" }], { codec }))).rejects.toThrow(
      /result/,
    );
  });
});

describe("faults attributed to the right party", () => {
  const bug = new TypeError("a bug");
  const throwing = () => {
    throw bug;
  };
  const faultOf = (error: unknown) => {
    const chain: unknown[] = [];
    for (let e = error; e instanceof Error; e = e.cause) chain.push(e);
    return { reason: (error as SnappyError).reason, caused: chain.includes(bug) };
  };

  it("a bounds function that throws is the application's: bad-options", async () => {
    const bytes = await responseBytes([{ ssz: blocks[0]!, context: DIGEST }]);
    const error = await collect(decodeResponse([bytes], { codec, bounds: throwing })).catch(
      (e) => e,
    );
    expect(faultOf(error)).toEqual({ reason: "bad-options", caused: true });
  });

  it("a codec whose uncompress throws is the codec's: backend-failed", async () => {
    const broken = { ...codec, uncompress: throwing, uncompressInto: throwing };
    const bytes = await responseBytes([{ ssz: blocks[0]!, context: DIGEST }]);
    const error = await collect(decodeResponse([bytes], { codec: broken, bounds: byDigest })).catch(
      (e) => e,
    );
    expect(faultOf(error)).toEqual({ reason: "backend-failed", caused: true });
    const request = encodeSszSnappy(codec, new Uint8Array(24));
    const fromRequest = await decodeRequest([request], {
      codec: broken,
      bounds: { minSize: 24, maxSize: 24 },
    }).catch((e) => e);
    expect(faultOf(fromRequest)).toEqual({ reason: "backend-failed", caused: true });
  });

  it("a codec whose compress throws is the codec's: backend-failed", async () => {
    const broken = { ...codec, compress: throwing };
    const error = await collect(encodeResponse([{ ssz: blocks[0]! }], { codec: broken })).catch(
      (e) => e,
    );
    expect(faultOf(error)).toEqual({ reason: "backend-failed", caused: true });
    const fromRequest = await collect(encodeRequest(new Uint8Array(24), { codec: broken })).catch(
      (e) => e,
    );
    expect(faultOf(fromRequest)).toEqual({ reason: "backend-failed", caused: true });
  });
});

describe("memory follows the bytes received", () => {
  const MiB = 1024 * 1024;
  const gc = (globalThis as { gc?: () => void }).gc!;

  it("a 10 MiB response peaks at no more than twice its size", async () => {
    // Random bytes Snappy cannot shrink: the worst case for a response's memory.
    const payload = randomBytes(10 * MiB, 1);
    const bytes = await responseBytes([{ ssz: payload, context: DIGEST }]);
    gc();
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    const sample = () => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    };
    // As a libp2p stream yields a response: 64 KiB pieces, the memory sampled at each pull.
    async function* pieces() {
      for (let pos = 0; pos < bytes.length; pos += 65_536) {
        sample();
        yield bytes.subarray(pos, pos + 65_536);
      }
    }
    const got = await collect(
      decodeResponse(pieces(), { codec, bounds: () => ({ minSize: 0, maxSize: 10 * MiB }) }),
    );
    sample();
    expect(got.length).toBe(1);
    expect(Buffer.from(got[0]!.ssz).equals(payload)).toBe(true);
    expect(peak).toBeLessThanOrEqual(2 * payload.length);
  });

  it("a response declaring 10 MiB and sending one chunk allocates for that chunk only", async () => {
    const full = await responseBytes([{ ssz: randomBytes(10 * MiB, 1), context: DIGEST }]);
    // <result> <context> <prefix> <stream identifier> and one 64 KiB chunk, then it stalls.
    const start = full.subarray(0, 1 + 4 + 4 + 10 + 4 + 4 + 65_536);
    gc();
    const before = process.memoryUsage().arrayBuffers;
    let during = Number.POSITIVE_INFINITY;
    const controller = new AbortController();
    async function* stalls() {
      yield start;
      await new Promise((r) => setTimeout(r, 10));
      during = process.memoryUsage().arrayBuffers - before;
      controller.abort(new Error("timed out"));
      await new Promise(() => {});
    }
    await expect(
      collect(
        decodeResponse(stalls(), {
          codec,
          bounds: () => ({ minSize: 0, maxSize: 10 * MiB }),
          signal: controller.signal,
        }),
      ),
    ).rejects.toThrow("timed out");
    expect(during).toBeLessThan(256 * 1024);
  });
});

describe("writeToStream", () => {
  /** A libp2p 3 stream's writing side whose buffer is full after every `every` sends. */
  function stream(every: number) {
    const log: string[] = [];
    return {
      log,
      send(data: Uint8Array) {
        log.push(`send ${data.length}`);
        return log.filter((l) => l.startsWith("send")).length % every !== 0;
      },
      async onDrain() {
        log.push("drain");
      },
      async close() {
        log.push("close");
      },
      abort(error: Error) {
        log.push(`abort ${error.message}`);
      },
    };
  }

  it("waits for the stream to drain when send() says it is full, then closes it", async () => {
    const s = stream(2);
    await writeToStream(s, [Uint8Array.of(1), Uint8Array.of(2, 2), Uint8Array.of(3)]);
    expect(s.log).toEqual(["send 1", "send 2", "drain", "send 1", "close"]);
  });

  it("aborts the stream when the chunks' source fails, and rethrows", async () => {
    const s = stream(10);
    async function* failing() {
      yield Uint8Array.of(1);
      throw new Error("no more blocks");
    }
    await expect(writeToStream(s, failing())).rejects.toThrow("no more blocks");
    expect(s.log).toEqual(["send 1", "abort no more blocks"]);
  });

  it("aborts the stream on the signal", async () => {
    const s = stream(10);
    const controller = new AbortController();
    async function* slow() {
      yield Uint8Array.of(1);
      controller.abort(new Error("timed out"));
      yield Uint8Array.of(2);
    }
    await expect(writeToStream(s, slow(), { signal: controller.signal })).rejects.toThrow(
      "timed out",
    );
    expect(s.log).toEqual(["send 1", "abort timed out"]);
  });
});

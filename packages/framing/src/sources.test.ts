// What callers stream into framing: libp2p's Uint8ArrayList chunks (read part by part, never
// flattened), and sources that must be told when framing stops reading them.
import { Uint8ArrayList } from "uint8arraylist";
import { describe, expect, it } from "vitest";
import { readerInternals } from "./chunks.js";
import {
  ByteReader,
  createFrameDecoderStream,
  decodeFramedStream,
  encodeFramed,
  encodeFramedStream,
  FrameDecoder,
  FrameEncoder,
} from "./index.js";
import { codecs, concat, expectBytes, structuredBytes } from "./test/helpers.js";

/**
 * A Uint8ArrayList that fails the test if framing flattens it: reading it by index or copying
 * it out (`subarray`, `slice`, `get`) throws, so only its parts, read in place, can be used.
 */
class PartsOnlyList extends Uint8ArrayList {
  override subarray(): never {
    throw new Error("flattened: subarray() called");
  }
  override slice(): never {
    throw new Error("flattened: slice() called");
  }
  override get(): never {
    throw new Error("flattened: get() called");
  }
}

/** `bytes` as lists cut at `cut`, each list's parts cut again in two (empty parts included). */
function listsCutAt(bytes: Uint8Array, cut: number): Uint8ArrayList[] {
  const list = (from: number, to: number) => {
    const mid = (from + to) >>> 1;
    return new PartsOnlyList(bytes.subarray(from, mid), bytes.subarray(mid, to));
  };
  return [list(0, cut), list(cut, bytes.length)];
}

/** Every way of cutting `bytes` into two lists (cut at every byte), and one list of 1-byte parts. */
function* everyCut(bytes: Uint8Array): Generator<Uint8ArrayList[]> {
  for (let cut = 0; cut <= bytes.length; cut++) yield listsCutAt(bytes, cut);
  yield [new PartsOnlyList(...Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)))];
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of source) parts.push(p);
  return concat(...parts);
}

describe.each(codecs.map((c) => [c.name, c] as const))("Uint8ArrayList chunks, %s", (_n, codec) => {
  const data = structuredBytes(2500);
  const framed = encodeFramed(codec, data, { chunkSize: 1000 }); // compressed chunks
  const stored = encodeFramed(
    codec,
    structuredBytes(300, 3).map((b, i) => b ^ i),
    {
      chunkSize: 100,
    },
  ); // uncompressed chunks too

  it("decodeFramedStream, FrameDecoder and the TransformStream read lists cut at every byte", async () => {
    for (const [stream, expected] of [
      [framed, data],
      [stored, structuredBytes(300, 3).map((b, i) => b ^ i)],
    ] as const) {
      for (const lists of everyCut(stream)) {
        expectBytes(await collect(decodeFramedStream(codec, lists)), expected);
        const decoder = new FrameDecoder(codec);
        const pieces = lists.flatMap((list) => [...decoder.write(list)]);
        decoder.end();
        expectBytes(concat(...pieces), expected);
      }
      const piped = new ReadableStream<Uint8ArrayList>({
        start(controller) {
          for (const list of listsCutAt(stream, 17)) controller.enqueue(list);
          controller.close();
        },
      }).pipeThrough(createFrameDecoderStream(codec));
      expectBytes(await collect(piped as unknown as AsyncIterable<Uint8Array>), expected);
    }
  });

  it("encoders take lists as they take bytes", async () => {
    for (const lists of [listsCutAt(data, 999), listsCutAt(data, 0)]) {
      expectBytes(await collect(encodeFramedStream(codec, lists)), encodeFramed(codec, data));
      const encoder = new FrameEncoder(codec, { chunkSize: 1000 });
      const out = [...lists.flatMap((list) => [...encoder.write(list)]), ...encoder.end()];
      expectBytes(concat(...out), framed);
    }
  });

  it("a ByteReader's reads from a list are the caller's own bytes", async () => {
    const bytes = Uint8Array.of(1, 2, 3, 4, 5, 6);
    const reader = new ByteReader([new PartsOnlyList(bytes.subarray(0, 4), bytes.subarray(4))]);
    const inOnePart = await reader.read(3);
    const acrossParts = await reader.read(3);
    bytes.fill(0);
    expect([inOnePart, acrossParts]).toEqual([Uint8Array.of(1, 2, 3), Uint8Array.of(4, 5, 6)]);
  });

  it("the chunk-level reads (view, skip, readInto) read lists cut at every byte in place", async () => {
    // What a protocol built on ./chunks (ssz_snappy in @snappykit/p2p) reads with.
    const bytes = structuredBytes(60, 3);
    for (const lists of everyCut(bytes)) {
      const reader = new ByteReader(lists);
      expectBytes((await readerInternals.view(reader, 20))!, bytes.subarray(0, 20));
      expect(await readerInternals.skip(reader, 15)).toBe(true);
      const into = new Uint8Array(25);
      expect(await readerInternals.readInto(reader, into)).toBe(true);
      expectBytes(into, bytes.subarray(35));
      expect(await readerInternals.view(reader, 1)).toBeUndefined();
    }
  });
});

/** A ReadableStream of `bytes` in `step`-byte pieces that records whether it was cancelled. */
function recordingStream(bytes: Uint8Array, step: number) {
  const seen = { cancelled: false, reason: undefined as unknown };
  let pos = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pos >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(pos, pos + step));
      pos += step;
    },
    cancel(reason) {
      seen.cancelled = true;
      seen.reason = reason;
    },
  });
  return { stream, seen };
}

/** An async iterable of `bytes` in `step`-byte pieces that records whether it was closed early. */
function recordingIterable(bytes: Uint8Array, step: number) {
  const seen = { returned: false, finished: false };
  const iterable = (async function* () {
    try {
      for (let pos = 0; pos < bytes.length; pos += step) yield bytes.slice(pos, pos + step);
      seen.finished = true;
    } finally {
      seen.returned = !seen.finished;
    }
  })();
  return { iterable, seen };
}

describe.each(codecs.map((c) => [c.name, c] as const))("stopping a stream, %s", (_n, codec) => {
  const data = structuredBytes(300_000);
  const framed = encodeFramed(codec, data);
  // A good first chunk, a chunk type no decoder may skip, then more the source would send.
  const firstEnd = 10 + 4 + (framed[11]! | (framed[12]! << 8) | (framed[13]! << 16));
  const corrupt = concat(
    framed.subarray(0, firstEnd),
    Uint8Array.of(0x02, 0, 0, 0),
    framed.subarray(firstEnd),
  );

  it("breaking out of decodeFramedStream / encodeFramedStream cancels a ReadableStream", async () => {
    for (const [run, input] of [
      [(s: ReadableStream<Uint8Array>) => decodeFramedStream(codec, s), framed],
      [(s: ReadableStream<Uint8Array>) => encodeFramedStream(codec, s), data],
    ] as const) {
      const { stream, seen } = recordingStream(input, 4096);
      for await (const _ of run(stream)) break;
      expect(seen.cancelled).toBe(true);
      expect(stream.locked).toBe(false);
    }
  });

  it("breaking out over an async iterable calls its return()", async () => {
    for (const [run, input] of [
      [(s: AsyncIterable<Uint8Array>) => decodeFramedStream(codec, s), framed],
      [(s: AsyncIterable<Uint8Array>) => encodeFramedStream(codec, s), data],
    ] as const) {
      const { iterable, seen } = recordingIterable(input, 4096);
      for await (const _ of run(iterable)) break;
      expect(seen.returned).toBe(true);
    }
  });

  it("a SnappyError mid-stream cancels the source", async () => {
    const { stream, seen } = recordingStream(corrupt, 4096);
    await expect(collect(decodeFramedStream(codec, stream))).rejects.toMatchObject({
      reason: "reserved-unskippable-chunk",
    });
    expect(seen.cancelled).toBe(true);
    expect(stream.locked).toBe(false);
    const recorded = recordingIterable(corrupt, 4096);
    await expect(collect(decodeFramedStream(codec, recorded.iterable))).rejects.toMatchObject({
      reason: "reserved-unskippable-chunk",
    });
    expect(recorded.seen.returned).toBe(true);
    // A bad item from the source: the same, from the decoder and the encoder.
    for (const run of [decodeFramedStream, encodeFramedStream]) {
      let cancelled = false;
      const badItem = new ReadableStream<unknown>({
        start(controller) {
          controller.enqueue(framed.subarray(0, 50));
          controller.enqueue("not bytes");
        },
        cancel() {
          cancelled = true;
        },
      });
      await expect(
        collect(run(codec, badItem as ReadableStream<Uint8Array>)),
      ).rejects.toMatchObject({ reason: "not-bytes" });
      expect(cancelled).toBe(true);
      expect(badItem.locked).toBe(false);
    }
  });

  it("ByteReader.cancel() cancels the stream on demand", async () => {
    const manual = recordingStream(data, 100);
    const reader = new ByteReader(manual.stream);
    expectBytes((await reader.read(1000))!, data.subarray(0, 1000));
    await reader.cancel();
    expect(manual.seen.cancelled).toBe(true);
    expect(manual.stream.locked).toBe(false);
    expect(await reader.atEnd()).toBe(true);
  });
});

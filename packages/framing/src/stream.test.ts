import { describe, expect, it } from "vitest";
import {
  createFrameDecoderStream,
  createFrameEncoderStream,
  decodeFramedStream,
  encodeFramed,
  encodeFramedStream,
  STREAM_IDENTIFIER,
} from "./index.js";
import {
  asyncCodeOf,
  chunk,
  codecs,
  concat,
  expectBytes,
  randomBytes,
  structuredBytes,
} from "./test/helpers.js";

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of source) parts.push(p);
  return concat(...parts);
}

function readable(bytes: Uint8Array, step: number): ReadableStream<Uint8Array> {
  let pos = 0;
  return new ReadableStream({
    pull(controller) {
      if (pos >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(pos, pos + step));
      pos += step;
    },
  });
}

describe.each(codecs.map((c) => [c.name, c] as const))("streaming over %s", (_n, codec) => {
  const data = concat(structuredBytes(150_000), randomBytes(40_000));

  it("async-iterable encode/decode match the one-shot functions", async () => {
    const slices = (step: number) =>
      (function* () {
        for (let pos = 0; pos < data.length; pos += step) yield data.subarray(pos, pos + step);
      })();
    const framed = encodeFramed(codec, data);
    for (const step of [1000, 65_536, 70_001]) {
      expectBytes(await collect(encodeFramedStream(codec, slices(step))), framed);
    }
    const framedSlices = (step: number) =>
      (async function* () {
        for (let pos = 0; pos < framed.length; pos += step) yield framed.subarray(pos, pos + step);
      })();
    for (const step of [1, 333, 100_000]) {
      if (step === 1) {
        // Byte-at-a-time on a small stream: every header and body split point.
        const small = encodeFramed(codec, data.subarray(0, 3000), { chunkSize: 1000 });
        const one = (async function* () {
          for (const b of small) yield Uint8Array.of(b);
        })();
        expectBytes(await collect(decodeFramedStream(codec, one)), data.subarray(0, 3000));
        continue;
      }
      expectBytes(await collect(decodeFramedStream(codec, framedSlices(step))), data);
    }
  });

  it("Web Streams: a TransformStream pipeline round-trips", async () => {
    const out = readable(data, 10_000)
      .pipeThrough(createFrameEncoderStream(codec, { chunkSize: 20_000 }))
      .pipeThrough(createFrameDecoderStream(codec));
    const parts: Uint8Array[] = [];
    for await (const p of out as unknown as AsyncIterable<Uint8Array>) parts.push(p);
    expectBytes(concat(...parts), data);
  });

  it("Web Streams: bad input errors the readable side with a SnappyError", async () => {
    const bad = concat(encodeFramed(codec, data), Uint8Array.of(0x00, 0x10));
    const run = async () => {
      const reader = readable(bad, 5000).pipeThrough(createFrameDecoderStream(codec)).getReader();
      for (;;) if ((await reader.read()).done) return;
    };
    expect(await asyncCodeOf(run)).toBe("CORRUPT_INPUT");
    const wrongCrc = encodeFramed(codec, data);
    wrongCrc[14] = wrongCrc[14]! ^ 1;
    expect(
      await asyncCodeOf(() => collect(decodeFramedStream(codec, readable(wrongCrc, 4096)))),
    ).toBe("CHECKSUM_MISMATCH");
  });

  it("streams far more data than it holds: 64 MiB through, one chunk at a time", async () => {
    const piece = structuredBytes(1 << 20);
    const source = async function* () {
      for (let i = 0; i < 64; i++) yield piece;
    };
    let total = 0;
    let largest = 0;
    for await (const out of decodeFramedStream(codec, encodeFramedStream(codec, source()))) {
      total += out.length;
      largest = Math.max(largest, out.length);
    }
    expect(total).toBe(64 << 20);
    expect(largest).toBe(65_536); // output arrives chunk by chunk, never accumulated
  });

  it("skips a 16 MiB padding chunk without buffering it, and caps output with maxLength", async () => {
    const huge = chunk(0xfe, new Uint8Array(0xffffff));
    const stream = concat(STREAM_IDENTIFIER, huge, encodeFramed(codec, data).subarray(10));
    expectBytes(await collect(decodeFramedStream(codec, readable(stream, 1 << 16))), data);
    expect(
      await asyncCodeOf(() =>
        collect(decodeFramedStream(codec, readable(stream, 1 << 16), { maxLength: 100_000 })),
      ),
    ).toBe("LENGTH_LIMIT");
  });
});

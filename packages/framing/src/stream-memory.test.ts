// A stream over a source that is always ready must still let the event loop turn: native
// backends free their output in finalizers that run there (Node-API external buffers), and
// a stream run on promise jobs alone held every chunk's output until it ended (napi-v1 and
// napi-wasi: resident memory grew with the stream's length).
import type { SnappyCodec } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import {
  createFrameDecoderStream,
  createFrameEncoderStream,
  decodeFramedStream,
  encodeFramedStream,
} from "./index.js";
import { codecs, structuredBytes } from "./test/helpers.js";

/**
 * `codec` with its outputs' memory held until the event loop turns, as external buffers are:
 * `held()` is how many bytes are waiting to be freed right now.
 */
function freedOnTheEventLoop(codec: SnappyCodec) {
  let held = 0;
  let scheduled = false;
  const hold = (output: Uint8Array) => {
    held += output.length;
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        held = 0;
        scheduled = false;
      });
    }
    return output;
  };
  const wrapped: SnappyCodec = {
    ...codec,
    compress: (input) => hold(codec.compress(input)),
    uncompress: (input, options) => hold(codec.uncompress(input, options)),
  };
  return { codec: wrapped, held: () => held };
}

const piece = structuredBytes(65_536);
const total = 64 << 20;
async function* source() {
  for (let sent = 0; sent < total; sent += piece.length) yield piece;
}
// Each of the two streams turns the loop every 4 MiB it produces.
const BOUND = 16 << 20;

describe("streaming over a source that is always ready", () => {
  it("lets the event loop turn, so memory freed there stays bounded", async () => {
    const { codec, held } = freedOnTheEventLoop(codecs[0]!);
    let received = 0;
    let peak = 0;
    for await (const chunk of decodeFramedStream(codec, encodeFramedStream(codec, source()))) {
      received += chunk.length;
      peak = Math.max(peak, held());
    }
    expect(received).toBe(total);
    expect(peak).toBeLessThanOrEqual(BOUND);
  });

  it("the same through the Web Streams transforms", async () => {
    const { codec, held } = freedOnTheEventLoop(codecs[0]!);
    const reader = ReadableStream.from(source())
      .pipeThrough(createFrameEncoderStream(codec))
      .pipeThrough(createFrameDecoderStream(codec))
      .getReader();
    let received = 0;
    let peak = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.length;
      peak = Math.max(peak, held());
    }
    expect(received).toBe(total);
    expect(peak).toBeLessThanOrEqual(BOUND);
  });
});

// Every array framing hands back owns its memory, whatever memory the caller's input is in:
// an uncompressed chunk's data must be copied out of the input, and a Node Buffer's
// `slice()` does not copy (decodeFramed, decodeFramedStream and FrameDecoder once returned
// views of a Buffer input, so a caller reusing it changed the "decoded" data).
import { expectOwned, inputKinds } from "@snappykit/conformance/cases";
import { describe, expect, it } from "vitest";
import {
  createFrameDecoderStream,
  decodeFramed,
  decodeFramedStream,
  encodeFramed,
  FrameDecoder,
  FrameEncoder,
} from "./index.js";
import { codecs, concat, expectBytes, randomBytes, structuredBytes } from "./test/helpers.js";

/** Uncompressed chunks (random data) and compressed ones, around the 64 KiB chunk size. */
const payloads = [
  ["random 100 B", randomBytes(100, 3)],
  ["random 65536 B", randomBytes(65_536, 4)],
  ["random 65537 B", randomBytes(65_537, 5)],
  ["structured 150000 B", structuredBytes(150_000, 6)],
  ["mixed", concat(randomBytes(70_000, 7), structuredBytes(70_000, 8))],
] as const;

async function collect(pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
  const out: Uint8Array[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

describe.each(codecs.map((c) => [c.name, c] as const))(
  "results own their memory (%s)",
  (_, codec) => {
    for (const [name, data] of payloads) {
      const framed = encodeFramed(codec, data);

      it(`decoders, ${name}`, async () => {
        for (const [kind, _] of inputKinds(framed)) {
          const each = () => inputKinds(framed).find(([k]) => k === kind)![1];
          const what = (api: string) => `${api}(${kind})`;
          let input = each();
          expectOwned(decodeFramed(codec, input), data, input, what("decodeFramed"));

          input = each();
          const decoder = new FrameDecoder(codec);
          const pieces = [...decoder.write(input)];
          decoder.end();
          const joined = concat(...pieces);
          for (const piece of pieces) {
            expect(piece.buffer.byteLength, what("FrameDecoder.write")).toBe(piece.byteLength);
          }
          input.fill(0xa5);
          expectBytes(concat(...pieces), joined, what("FrameDecoder.write, input overwritten"));
          expectBytes(joined, data, what("FrameDecoder.write"));

          for (const [api, run] of [
            ["decodeFramedStream", (i: Uint8Array) => collect(decodeFramedStream(codec, [i]))],
            [
              "createFrameDecoderStream",
              (i: Uint8Array) =>
                drain(
                  new ReadableStream<Uint8Array>({
                    start(controller) {
                      controller.enqueue(i);
                      controller.close();
                    },
                  }).pipeThrough(createFrameDecoderStream(codec)),
                ),
            ],
          ] as const) {
            input = each();
            const got = await run(input);
            const before = concat(...got);
            input.fill(0xa5);
            expectBytes(concat(...got), before, what(`${api}, input overwritten`));
            expectBytes(before, data, what(api));
          }
        }
      });

      it(`encoders, ${name}`, () => {
        for (const [kind, input] of inputKinds(data)) {
          const what = (api: string) => `${api}(${kind})`;
          expectOwned(encodeFramed(codec, input), framed, input, what("encodeFramed"));
          const streamed = inputKinds(data).find(([k]) => k === kind)![1];
          const encoder = new FrameEncoder(codec);
          const pieces = [...encoder.write(streamed), ...encoder.end()];
          for (const piece of pieces)
            expect(piece.buffer.byteLength, what("FrameEncoder")).toBe(piece.byteLength);
          streamed.fill(0xa5);
          expectBytes(concat(...pieces), framed, what("FrameEncoder, input overwritten"));
        }
      });
    }
  },
);

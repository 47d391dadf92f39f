// Every reason a peer scorer can see is produced by some hostile input, and distinct faults
// get distinct reasons: one input per reason of core's, through the block format (napi's
// guarded codec) and framing. @snappykit/p2p's tests do the same for its reasons and for the
// one of core's only its bounds produce.
import { outputSpace, REASON_CODES } from "@snappykit/core";
import { createCodec } from "@snappykit/napi";
import { describe, expect, it } from "vitest";
import { decodeFramed, encodeFramed, STREAM_IDENTIFIER } from "./index.js";

const codec = await createCodec();
const hex = (h: string) =>
  Uint8Array.from(h.replace(/ /g, "").match(/../g)!, (x) => parseInt(x, 16));
const text = new TextEncoder().encode("hello hello hello hello");
const wire = codec.compress(text);
const framed = encodeFramed(codec, text);
const detached = () => {
  const bytes = new Uint8Array(wire);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
};
const flipped = (bytes: Uint8Array, at: number) => {
  const copy = bytes.slice();
  copy[at]! ^= 1;
  return copy;
};
const chunk = (type: number, body: number[]) =>
  Uint8Array.of(
    ...STREAM_IDENTIFIER,
    type,
    body.length & 0xff,
    (body.length >> 8) & 0xff,
    body.length >> 16,
    ...body,
  );

const HOSTILE: Record<string, () => unknown> = {
  "not-bytes": () => codec.uncompress("abc" as never),
  detached: () => codec.uncompress(detached()),
  "bad-options": () => codec.uncompress(wire, [] as never),
  "overlapping-output": () => outputSpace(wire, wire, 1),
  "bad-argument": () => decodeFramed({} as never, framed),
  "output-too-small": () => outputSpace(wire, new Uint8Array(2), text.length),
  "length-over-limit": () => codec.uncompress(wire, { maxLength: 5 }),
  truncated: () => codec.uncompress(hex("80")),
  "bad-preamble": () => codec.uncompress(hex("ff ff ff ff ff ff")),
  "length-over-expansion": () => codec.uncompress(hex("80 80 80 20 00 00 00 00")),
  "literal-past-input": () => codec.uncompress(hex("08 1c 41 41")),
  "offset-zero": () => codec.uncompress(hex("08 0c 61 62 63 64 01 00")),
  "offset-past-output": () => codec.uncompress(hex("08 0c 61 62 63 64 01 09")),
  "output-overrun": () => codec.uncompress(hex("02 0c 61 62 63 64")),
  "checksum-mismatch": () => decodeFramed(codec, flipped(framed, 14)),
  "bad-stream-identifier": () => decodeFramed(codec, flipped(framed, 9)),
  "reserved-unskippable-chunk": () => decodeFramed(codec, chunk(0x02, [])),
  "chunk-too-short": () => decodeFramed(codec, chunk(0x00, [1, 2])),
  "oversize-chunk": () => decodeFramed(codec, chunk(0x01, Array(4 + 65537).fill(0))),
};

/**
 * Reasons no input produces here: they name the backend or the environment, not the bytes, or
 * only another package's input produces them (its tests show it).
 */
const NOT_INPUT = {
  unsupported: "a backend that cannot load here (napi-v1 in a worker, auto without conformance)",
  "backend-failed": "a backend reporting nonsense about its own work (stablelib's into)",
  "backend-rejected": "a backend refusing a stream core proves valid even in its shortest form",
  "length-under-minimum":
    "a type's minimum, which only p2p's bounds set: packages/p2p/src/reasons.test.ts",
};

describe("error reasons", () => {
  it("cover every reason core names, each input or backend fault once", () => {
    expect(Object.keys({ ...HOSTILE, ...NOT_INPUT }).sort()).toEqual(
      Object.keys(REASON_CODES).sort(),
    );
  });

  for (const [reason, hostile] of Object.entries(HOSTILE)) {
    it(`${reason}: produced by a hostile input, with its code`, async () => {
      let error: unknown;
      try {
        await hostile();
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({
        name: "SnappyError",
        reason,
        code: REASON_CODES[reason as keyof typeof REASON_CODES],
      });
    });
  }
});

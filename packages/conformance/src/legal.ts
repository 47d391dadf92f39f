// Every legal-form stream (legal-forms.ts) on every decode path a codec has: a decoder that
// reads only what encoders write fails here, on the forms a peer may still send.
import type { SnappyCodec } from "@snappykit/core";
import type { AddCheck } from "./check.js";
import { fail, hex, sameBytes } from "./expect.js";
import { type LegalCase, legalForms } from "./legal-forms.js";

const GROUP = "decodes every legal form";

/** Runs `decode` on every case; a failure names the case and the start of its stream. */
async function everyCase(
  decode: (item: LegalCase) => Uint8Array | number | Promise<Uint8Array>,
  check: (item: LegalCase, result: Uint8Array | number) => void,
): Promise<void> {
  for (const item of legalForms()) {
    let result: Uint8Array | number;
    try {
      result = await decode(item);
    } catch (error) {
      fail(`${item.name} (${hex(item.stream)}): ${error instanceof Error ? error.message : error}`);
    }
    check(item, result);
  }
}

const bytesOfResult = (item: LegalCase, result: Uint8Array | number) => {
  if (typeof result === "number") fail(`${item.name}: returned a number`);
  sameBytes(result, item.expected, item.name);
};

/** Register the legal-form checks: one per decode path. */
export function legalFormChecks(add: AddCheck): void {
  add(GROUP, "uncompress", (c) => everyCase((item) => c.uncompress(item.stream), bytesOfResult));

  // How framing and ssz_snappy call the codec: a chunk's bound as maxLength.
  add(GROUP, "uncompress with maxLength at the stream's own length", (c) =>
    everyCase(
      (item) => c.uncompress(item.stream, { maxLength: item.expected.length }),
      bytesOfResult,
    ),
  );

  add(GROUP, "uncompressedLength", (c) =>
    everyCase(
      (item) => c.uncompressedLength(item.stream),
      (item, length) => {
        if (length !== item.expected.length) fail(`${item.name}: length ${String(length)}`);
      },
    ),
  );

  add(GROUP, "uncompressAsync", (c: SnappyCodec) => {
    const decode = c.uncompressAsync;
    if (!decode) return;
    return everyCase((item) => decode(item.stream), bytesOfResult);
  });

  add(GROUP, "uncompressInto an output of exactly the length", (c) => {
    const into = c.uncompressInto;
    if (!into) return;
    let output = new Uint8Array(0);
    return everyCase(
      (item) => {
        output = new Uint8Array(item.expected.length);
        return into(item.stream, output);
      },
      (item, written) => {
        if (written !== item.expected.length) fail(`${item.name}: wrote ${String(written)}`);
        sameBytes(output, item.expected, item.name);
      },
    );
  });
}

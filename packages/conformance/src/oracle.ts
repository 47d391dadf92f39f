// A Snappy decoder written to be obviously correct, not fast: every rule is a line of
// google/snappy's format_description.txt, in order. The suite trusts it to say what a
// stream means, so it shares no code with any codec under test (nor with @snappykit/core).

/**
 * Decode a raw Snappy stream by the book. Throws a plain `Error` (naming the rule) for any
 * stream Google's libsnappy would reject; returns the bytes otherwise.
 */
export function oracleUncompress(input: Uint8Array): Uint8Array {
  let pos = 0;
  const next = (what: string): number => {
    if (pos >= input.length) throw new Error(`input ended inside ${what}`);
    return input[pos++]!;
  };

  // §1 Preamble: "the uncompressed length (up to a maximum of 2^32 - 1), stored as a
  // little-endian varint". Five 7-bit groups at most; the total must fit 32 bits.
  let declared = 0;
  for (let shift = 0; ; shift += 7) {
    if (shift > 28) throw new Error("preamble varint longer than 5 bytes");
    const byte = next("the preamble");
    declared += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) break;
  }
  if (declared > 0xffffffff) throw new Error("preamble larger than 2^32 - 1");

  const out = new Output();
  const overflow = () => {
    if (out.length > declared) throw new Error("output longer than the preamble says");
  };
  while (pos < input.length) {
    const tag = next("a tag");
    const kind = tag & 0b11;
    if (kind === 0b00) {
      // §2.1 Literal: length-1 in the upper six bits; 60..63 mean the length-1 follows in
      // 1..4 little-endian bytes.
      let lengthMinusOne = tag >> 2;
      if (lengthMinusOne >= 60) {
        const extra = lengthMinusOne - 59;
        lengthMinusOne = 0;
        for (let i = 0; i < extra; i++) lengthMinusOne += next("a literal length") * 256 ** i;
      }
      for (let i = 0; i <= lengthMinusOne; i++) {
        out.push(next("literal data"));
        overflow();
      }
      continue;
    }
    let length: number;
    let offset: number;
    if (kind === 0b01) {
      // §2.2.1 Copy with 1-byte offset: length-4 in bits 2..4, offset's high 3 bits in 5..7.
      length = ((tag >> 2) & 0b111) + 4;
      offset = (tag >> 5) * 256 + next("a copy offset");
    } else if (kind === 0b10) {
      // §2.2.2 Copy with 2-byte offset: length-1 in the upper six bits.
      length = (tag >> 2) + 1;
      offset = next("a copy offset") + next("a copy offset") * 256;
    } else {
      // §2.2.3 Copy with 4-byte offset.
      length = (tag >> 2) + 1;
      offset = 0;
      for (let i = 0; i < 4; i++) offset += next("a copy offset") * 256 ** i;
    }
    // §2.2: "the offset is ... back from the current position"; an offset of zero or one
    // reaching before the first byte produced is invalid. Copies may overlap (offset < length).
    if (offset === 0) throw new Error("copy offset of 0");
    if (offset > out.length) throw new Error("copy reaches before the start of the output");
    for (let i = 0; i < length; i++) {
      out.push(out.at(out.length - offset));
      overflow();
    }
  }
  if (out.length !== declared) throw new Error("output shorter than the preamble says");
  return out.bytes();
}

/**
 * The bytes produced so far: an array of bytes that grows as they come (a number[] took
 * seconds for the 32 MiB streams of the calling-pattern checks). Never sized by the
 * preamble, which may lie. (Also the legal-form generator's byte buffer: a container, no
 * rule of the format.)
 */
export class Output {
  #bytes = new Uint8Array(1024);
  length = 0;

  push(byte: number): void {
    if (this.length === this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes[this.length++] = byte;
  }

  at(index: number): number {
    return this.#bytes[index]!;
  }

  bytes(): Uint8Array {
    return this.#bytes.slice(0, this.length);
  }
}

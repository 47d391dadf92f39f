// Valid raw Snappy streams in every form format_description.txt allows, built element by
// element from its rules rather than by an encoder: encoders write one form per element
// (the shortest), decoders must read all of them. Each case carries the bytes the stream
// means, computed by the builder's own model of the output as it writes each element; the
// suite's tests check every case against the oracle too.
import { copy1, copy2, copy4, randomBytes, varint } from "./corpus.js";
import { Output } from "./oracle.js";

/** How a literal stores its length (§2.1): in the tag, or in 1–4 bytes after it. */
export type LiteralForm = "tag" | 1 | 2 | 3 | 4;

/** A copy's element form (§2.2.1–§2.2.3), by the bytes of its offset. */
export type CopyForm = 1 | 2 | 4;

/** One valid stream and what it decodes to. */
export interface LegalCase {
  readonly name: string;
  readonly stream: Uint8Array;
  readonly expected: Uint8Array;
}

/** The tag and length bytes of a literal of `n` bytes in `form`, which must hold `n - 1`. */
export function literalHeaderIn(form: LiteralForm, n: number): number[] {
  const m = n - 1;
  if (form === "tag") {
    if (m < 0 || m >= 60) throw new RangeError(`a tag holds literal lengths 1..60, not ${n}`);
    return [m << 2];
  }
  if (m < 0 || m >= 256 ** form) throw new RangeError(`${form} length bytes cannot hold ${n}`);
  const bytes = [(59 + form) << 2];
  for (let i = 0, v = m; i < form; i++, v = Math.floor(v / 256)) bytes.push(v % 256);
  return bytes;
}

const COPY_LIMITS: Record<CopyForm, { min: number; max: number; offsets: number }> = {
  1: { min: 4, max: 11, offsets: 2048 },
  2: { min: 1, max: 64, offsets: 65_536 },
  4: { min: 1, max: 64, offsets: 2 ** 32 },
};

/** Whether `form` can hold a copy of `length` bytes from `offset` back. */
export function copyFits(form: CopyForm, length: number, offset: number): boolean {
  const limit = COPY_LIMITS[form];
  return length >= limit.min && length <= limit.max && offset >= 1 && offset < limit.offsets;
}

/**
 * Writes elements and keeps the output they mean: a literal appends its bytes, a copy
 * appends `length` bytes read `offset` back one at a time (so overlapping copies repeat).
 */
class Builder {
  readonly #body = new Output();
  readonly #out = new Output();

  literal(data: Uint8Array, form: LiteralForm): this {
    for (const byte of literalHeaderIn(form, data.length)) this.#body.push(byte);
    for (let i = 0; i < data.length; i++) {
      this.#body.push(data[i]!);
      this.#out.push(data[i]!);
    }
    return this;
  }

  copy(form: CopyForm, length: number, offset: number): this {
    if (!copyFits(form, length, offset) || offset > this.#out.length) {
      throw new RangeError(`no copy-${form} of ${length} bytes from ${offset} back here`);
    }
    const element = form === 1 ? copy1 : form === 2 ? copy2 : copy4;
    for (const byte of element(length, offset)) this.#body.push(byte);
    for (let i = 0; i < length; i++) this.#out.push(this.#out.at(this.#out.length - offset));
    return this;
  }

  /**
   * The stream, its preamble (§1: the length as a varint) in `width` bytes: more than the
   * shortest form pads with 0x80 continuation bytes; 5 is the most a 32-bit length takes.
   */
  build(name: string, width?: number): LegalCase {
    const preamble = varintIn(this.#out.length, width);
    const body = this.#body.bytes();
    const stream = new Uint8Array(preamble.length + body.length);
    stream.set(preamble);
    stream.set(body, preamble.length);
    return { name, stream, expected: this.#out.bytes() };
  }
}

/** `n` as a varint of `width` bytes (default the shortest), low groups first. */
export function varintIn(n: number, width?: number): number[] {
  const bytes = varint(n);
  const wanted = width ?? bytes.length;
  if (wanted < bytes.length || wanted > 5) {
    throw new RangeError(`a ${wanted}-byte preamble cannot hold ${n}`);
  }
  bytes[bytes.length - 1]! |= wanted > bytes.length ? 0x80 : 0;
  while (bytes.length < wanted) bytes.push(bytes.length === wanted - 1 ? 0x00 : 0x80);
  return bytes;
}

const LITERAL_FORMS: readonly LiteralForm[] = ["tag", 1, 2, 3, 4];
const COPY_FORMS: readonly CopyForm[] = [1, 2, 4];

/** The lengths each literal form is tried with: all it holds while small, then its edges. */
function literalLengths(form: LiteralForm): number[] {
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (form === "tag") return range(1, 60);
  if (form === 1) return range(1, 256);
  const edges = [255, 256, 257, 4096, 65_535, 65_536, 65_537];
  return [...range(1, form === 2 ? 70 : 8), 60, 61, ...edges].filter(
    (n, i, all) => all.indexOf(n) === i && n - 1 < 256 ** form,
  );
}

/** Offsets at each copy form's limits and the boundaries between forms. */
const OFFSETS = [1, 2, 3, 4, 7, 8, 255, 256, 511, 1024, 2047, 2048, 4095, 65_535, 65_536, 70_000];

let cached: readonly LegalCase[] | undefined;

/**
 * Every legal-form case, built once (deterministic): a few thousand small streams and a
 * handful of 64 KiB ones, together a few MiB of output.
 */
export function legalForms(): readonly LegalCase[] {
  cached ??= build();
  return cached;
}

function build(): LegalCase[] {
  const cases: LegalCase[] = [new Builder().build("empty: a preamble of 0 and no elements")];
  const data = (n: number, seed: number) => randomBytes(n, seed);

  // §2.1: every literal length in every form that holds it, the shortest form or longer;
  // once as the final element (the stream ends right after its data) and once followed by
  // a copy, with the length bytes far from the end.
  for (const form of LITERAL_FORMS) {
    for (const n of literalLengths(form)) {
      const bytes = data(n, n);
      const what = `literal of ${n} in ${form === "tag" ? "the tag" : `${form} length byte(s)`}`;
      cases.push(new Builder().literal(bytes, form).build(`${what}, last`));
      cases.push(
        new Builder()
          .literal(bytes, form)
          .copy(n < 65_536 ? 2 : 4, 64, n)
          .build(`${what}, then a copy`),
      );
    }
  }
  // 8 × "A" as a literal of 7 in the tag, then one of 1 in the 1-byte length form: the
  // stream three backends rejected (081841414141414141f00041).
  const a = (n: number) => new Uint8Array(n).fill(0x41);
  cases.push(
    new Builder()
      .literal(a(7), "tag")
      .literal(a(1), 1)
      .build("literal of 7, then 1 in 1 length byte"),
  );
  // A short literal in a long form right after a copy, the element Lodestar met on mainnet.
  for (const form of LITERAL_FORMS) {
    for (const n of [1, 2, 3, 4]) {
      cases.push(
        new Builder()
          .literal(data(7, 70), 1)
          .copy(1, 4, 7)
          .literal(data(n, 71), form)
          .build(`literal of ${n} in form ${form} after a copy, last`),
      );
    }
  }

  // §2.2: each form at every length it holds, from offsets at the forms' limits, the same
  // copy in each form that can hold it; the stream ends with a copy.
  for (const form of COPY_FORMS) {
    for (const offset of OFFSETS) {
      const { min, max } = COPY_LIMITS[form];
      if (!copyFits(form, min, offset)) continue;
      const b = new Builder().literal(data(offset, offset), offset <= 60 ? "tag" : 3);
      for (let length = min; length <= max; length++) b.copy(form, length, offset);
      cases.push(b.build(`copy-${form} of lengths ${min}..${max} from offset ${offset}`));
    }
  }
  // Overlapping copies (offset < length) at every offset 1..64, in every form.
  for (let offset = 1; offset <= 64; offset++) {
    const b = new Builder().literal(data(offset, 200 + offset), offset <= 60 ? "tag" : 1);
    for (const form of COPY_FORMS) {
      const { min, max } = COPY_LIMITS[form];
      for (const length of [min, Math.min(offset + 1, max), max]) {
        if (copyFits(form, length, offset)) b.copy(form, length, offset);
      }
    }
    cases.push(b.build(`overlapping copies of every form at offset ${offset}`));
  }
  // Copies of 1..3 bytes exist only in the 2- and 4-byte forms; a run of them.
  for (const form of [2, 4] as const) {
    const b = new Builder().literal(data(3, 9), "tag");
    for (let i = 0; i < 90; i++) b.copy(form, 1 + (i % 3), 1 + (i % 3));
    cases.push(b.build(`90 copy-${form} elements of 1..3 bytes`));
  }

  // The longest streams for an output: one element per byte, as one-byte literals in the
  // tag and in the 4-byte length form, and as 1-byte copies after the first byte.
  for (const n of [1, 2, 64, 4096, 65_536]) {
    const bytes = data(n, 300 + n);
    const shortest = new Builder();
    for (const byte of bytes) shortest.literal(Uint8Array.of(byte), "tag");
    cases.push(shortest.build(`${n} one-byte literals`));
    if (n > 4096) continue;
    const widest = new Builder();
    for (const byte of bytes) widest.literal(Uint8Array.of(byte), 4);
    cases.push(widest.build(`${n} one-byte literals in the 4-byte length form`));
    const copies = new Builder().literal(bytes.subarray(0, 1), 4);
    for (let i = 1; i < n; i++) copies.copy(4, 1, 1);
    cases.push(copies.build(`a byte then ${n - 1} one-byte copy-4 elements`));
  }

  // §1: the preamble's varint in every width up to 5 bytes, longer than needed too (the
  // format does not ask for the shortest; libsnappy reads up to 5 bytes), at the lengths
  // where the shortest width changes, and an empty stream's 0 in the widest form.
  cases.push(new Builder().build("0 bytes behind a 5-byte preamble", 5));
  for (const n of [127, 128, 16_383, 16_384]) {
    const content = data(n, 400 + n);
    for (let width = varint(n).length; width <= 5; width++) {
      const b = new Builder().literal(content, 2);
      cases.push(b.build(`${n} bytes behind a ${width}-byte preamble`, width));
    }
  }
  return cases;
}

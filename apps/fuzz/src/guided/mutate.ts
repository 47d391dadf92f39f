// Byte-level mutations in the manner of libFuzzer's MutationDispatcher: bit flips, random and
// "interesting" bytes and integers, inserts, erases, copies within the input, dictionary
// tokens, and splices with another corpus entry, stacked 1–8 deep.

/** Values at the edges of Snappy's and the framing format's fields. */
const INTERESTING_8 = [
  0, 1, 2, 3, 4, 6, 0x3b, 0x3c, 0x3f, 0x40, 0x7f, 0x80, 0xef, 0xf0, 0xfc, 0xfe, 0xff,
];
const INTERESTING_32 = [
  0, 1, 4, 5, 6, 59, 60, 64, 255, 256, 2047, 2048, 2049, 65535, 65536, 65537, 65540, 65541, 76494,
  393225, 76498, 0xffffff, 0x7fffffff, 0xffffffff,
];

export class Mutator {
  readonly #next: () => number;
  readonly #dictionary: readonly Uint8Array[];
  readonly #maxLength: number;

  constructor(next: () => number, dictionary: readonly Uint8Array[], maxLength: number) {
    this.#next = next;
    this.#dictionary = dictionary;
    this.#maxLength = maxLength;
  }

  #int(n: number): number {
    return Math.floor(this.#next() * n);
  }

  #pick<T>(list: readonly T[]): T {
    return list[this.#int(list.length)]!;
  }

  /** A mutated copy of `input`; `other` is a second corpus entry for splicing. */
  mutate(input: Uint8Array, other: Uint8Array): Uint8Array {
    let out: Uint8Array = input.slice();
    const depth = 1 << this.#int(4); // 1, 2, 4 or 8 stacked mutations
    for (let i = 0; i < depth; i++) out = this.#once(out, other);
    return out.length > this.#maxLength ? out.subarray(0, this.#maxLength).slice() : out;
  }

  #once(b: Uint8Array, other: Uint8Array): Uint8Array {
    const n = b.length;
    const at = this.#int(n + 1);
    switch (this.#int(n === 0 ? 3 : 12)) {
      case 0: // insert 1–8 random bytes
        return splice(b, at, 0, randomRun(this.#next, 1 + this.#int(8)));
      case 1: // dictionary token, inserted
        return this.#dictionary.length > 0 ? splice(b, at, 0, this.#pick(this.#dictionary)) : b;
      case 2: // splice with another entry: our head, its tail
        return concat(b.subarray(0, at), other.subarray(this.#int(other.length + 1)));
      case 3: // flip a bit
        b[this.#int(n)]! ^= 1 << this.#int(8);
        return b;
      case 4: // random byte
        b[this.#int(n)] = this.#int(256);
        return b;
      case 5: // interesting byte
        b[this.#int(n)] = this.#pick(INTERESTING_8);
        return b;
      case 6: // add or subtract a little
        b[this.#int(n)] = (b[this.#int(n)]! + this.#int(35) - 17) & 0xff;
        return b;
      case 7: {
        // interesting 1–4 byte little-endian integer, overwritten
        const width = 1 + this.#int(4);
        const value = this.#pick(INTERESTING_32);
        const pos = this.#int(n);
        for (let k = 0; k < width && pos + k < n; k++)
          b[pos + k] = Math.floor(value / 256 ** k) & 0xff;
        return b;
      }
      case 8: {
        // erase a run
        const pos = this.#int(n);
        return splice(b, pos, 1 + this.#int(Math.min(16, n - pos)), new Uint8Array(0));
      }
      case 9: {
        // copy a run of the input to another place (insert)
        const from = this.#int(n);
        const len = 1 + this.#int(Math.min(64, n - from));
        return splice(b, at, 0, b.slice(from, from + len));
      }
      case 10: {
        // dictionary token, overwritten
        if (this.#dictionary.length === 0) return b;
        const token = this.#pick(this.#dictionary);
        const pos = this.#int(n);
        b.set(token.subarray(0, n - pos), pos);
        return b;
      }
      default:
        // truncate
        return b.subarray(0, this.#int(n)).slice();
    }
  }
}

function randomRun(next: () => number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
  return out;
}

function splice(b: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at), 0);
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
}

/** `a` then `b`, in a new array. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

import { describe, expect, it } from "vitest";
import { concatBytes, outputSpace, ownedBytes, ownsBuffer, retypedBytes } from "./output.js";

const code = (c: string) => expect.objectContaining({ name: "SnappyError", code: c });

describe("outputSpace", () => {
  it("passes enough room and rejects too little, a non-array or overlap", () => {
    const input = new Uint8Array(10);
    expect(() => outputSpace(input, new Uint8Array(5), 5)).not.toThrow();
    expect(() => outputSpace(input, new Uint8Array(4), 5)).toThrow(code("OUTPUT_TOO_SMALL"));
    expect(() => outputSpace(input, [] as never, 0)).toThrow(code("INVALID_ARGUMENT"));
    const memory = new Uint8Array(100);
    const a = memory.subarray(10, 20);
    expect(() => outputSpace(a, memory.subarray(19, 40), 5)).toThrow(code("INVALID_ARGUMENT"));
    expect(() => outputSpace(a, memory.subarray(0, 11), 5)).toThrow(code("INVALID_ARGUMENT"));
    expect(() => outputSpace(a, memory.subarray(19, 40), 5)).toThrow("output overlaps input");
    expect(() => outputSpace(input, new Uint8Array(4), 5)).toThrow(
      "output has 4 bytes, the operation needs 5",
    );
    expect(() => outputSpace(input, [] as never, 0)).toThrow(
      "output must be a Uint8Array, got an array",
    );
    expect(() => outputSpace(a, memory.subarray(19, 40), 5)).toThrow(
      expect.objectContaining({ reason: "overlapping-output" }),
    );
    expect(() => outputSpace(input, new Uint8Array(4), 5)).toThrow(
      expect.objectContaining({ reason: "output-too-small", length: 4, limit: 5 }),
    );
    // Adjacent is fine: the ranges do not share a byte.
    expect(() => outputSpace(a, memory.subarray(20, 40), 5)).not.toThrow();
    expect(() => outputSpace(a, memory.subarray(0, 10), 5)).not.toThrow();
  });

  it("returns the output as a plain view of the caller's memory", () => {
    const memory = Buffer.alloc(20);
    const view = outputSpace(new Uint8Array(4), memory.subarray(5, 15), 10);
    expect(Object.getPrototypeOf(view)).toBe(Uint8Array.prototype);
    expect([view.buffer, view.byteOffset, view.length]).toEqual([
      memory.buffer,
      memory.byteOffset + 5,
      10,
    ]);
    const plain = new Uint8Array(10);
    expect(outputSpace(new Uint8Array(4), plain, 10)).toBe(plain);
  });
});

describe("ownsBuffer", () => {
  it("is true only for an array covering its whole buffer from offset 0", () => {
    const buffer = new ArrayBuffer(8);
    expect(ownsBuffer(new Uint8Array(buffer))).toBe(true);
    expect(ownsBuffer(new Uint8Array(buffer, 0, 7))).toBe(false);
    expect(ownsBuffer(new Uint8Array(buffer, 1))).toBe(false);
  });
});

/** An empty array of `Type` on a buffer that has been transferred away (detached). */
function detachedEmpty<T extends Uint8Array>(Type: new (buffer: ArrayBuffer) => T): T {
  const memory = new ArrayBuffer(0);
  const empty = new Type(memory);
  structuredClone(memory, { transfer: [memory] });
  return empty;
}

/** Whether `bytes`' buffer can be transferred, as a caller hands a result to a worker. */
function transferable(bytes: Uint8Array): boolean {
  try {
    structuredClone(bytes.buffer, { transfer: [bytes.buffer as ArrayBuffer] });
    return true;
  } catch {
    return false;
  }
}

describe("ownedBytes", () => {
  it("returns an owning plain array itself", () => {
    const bytes = new Uint8Array(8);
    expect(ownedBytes(bytes)).toBe(bytes);
  });

  it("re-views an owning subclass without copying", () => {
    class Sub extends Uint8Array {}
    const sub = new Sub(8).fill(3);
    const plain = ownedBytes(sub);
    expect(Object.getPrototypeOf(plain)).toBe(Uint8Array.prototype);
    expect(plain.buffer).toBe(sub.buffer);
    expect(plain).toEqual(new Uint8Array(8).fill(3));
  });

  it("gives a fresh empty array for an empty one over a detached buffer", () => {
    // What Bun's Node-API returns for an empty result (snappy@7 uncompress of "\0").
    const memory = new ArrayBuffer(0);
    const empty = new Uint8Array(memory);
    structuredClone(memory, { transfer: [memory] });
    expect(() => new Uint8Array(empty.buffer, 0, 0)).toThrow(TypeError);
    const owned = ownedBytes(empty);
    expect(owned).toHaveLength(0);
    expect(Object.getPrototypeOf(owned)).toBe(Uint8Array.prototype);
    expect(ownsBuffer(owned)).toBe(true);
    expect(transferable(owned)).toBe(true);
    class Sub extends Uint8Array {}
    const sub = ownedBytes(detachedEmpty(Sub));
    expect(Object.getPrototypeOf(sub)).toBe(Uint8Array.prototype);
    expect(transferable(sub)).toBe(true);
  });

  it("copies a view into a larger buffer out into its own", () => {
    const pool = Uint8Array.from({ length: 64 }, (_, i) => i);
    const view = pool.subarray(8, 12);
    expect(ownsBuffer(view)).toBe(false);
    const owned = ownedBytes(view);
    expect(ownsBuffer(owned)).toBe(true);
    expect(Object.getPrototypeOf(owned)).toBe(Uint8Array.prototype);
    expect(Array.from(owned)).toEqual([8, 9, 10, 11]);
    if (typeof Buffer !== "undefined") {
      // Node's small Buffers are views into a shared 8 KiB pool.
      const pooled = Buffer.from("abc");
      const fromPool = ownedBytes(pooled);
      expect(ownsBuffer(fromPool)).toBe(true);
      expect(Object.getPrototypeOf(fromPool)).toBe(Uint8Array.prototype);
    }
  });
});

describe("concatBytes", () => {
  it("joins parts in order into a fresh array", () => {
    const a = Uint8Array.of(1, 2);
    const out = concatBytes([a, new Uint8Array(0), Uint8Array.of(3)]);
    expect([...out]).toEqual([1, 2, 3]);
    expect(out.buffer).not.toBe(a.buffer);
    expect(concatBytes([])).toEqual(new Uint8Array(0));
  });
});

describe("retypedBytes", () => {
  it("makes a subclass a plain Uint8Array in place and leaves plain arrays alone", () => {
    class Sub extends Uint8Array {}
    const sub = new Sub(3).fill(1);
    const plain = retypedBytes(sub);
    expect(plain).toBe(sub);
    expect(Object.getPrototypeOf(plain)).toBe(Uint8Array.prototype);
    expect(plain.toString()).toBe("1,1,1");
    const bytes = new Uint8Array(2);
    expect(retypedBytes(bytes)).toBe(bytes);
  });

  it("gives a fresh empty array for an empty result", () => {
    class Sub extends Uint8Array {}
    expect(Object.getPrototypeOf(retypedBytes(new Sub(0)))).toBe(Uint8Array.prototype);
    // As Bun's Node-API returns one: on a detached buffer, which a transfer would fail on.
    const empty = retypedBytes(detachedEmpty(Sub));
    expect(Object.getPrototypeOf(empty)).toBe(Uint8Array.prototype);
    expect(transferable(empty)).toBe(true);
  });
});

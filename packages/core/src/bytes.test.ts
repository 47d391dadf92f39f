import { describe, expect, it } from "vitest";
import { bytesOf } from "./bytes.js";
import { SnappyError } from "./errors.js";

const intrinsic = (key: string) =>
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), key)!.get!;

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SnappyError);
    const { code, reason, message } = error as SnappyError;
    return { code, reason, message };
  }
  throw new Error("no error");
};

/** Subclasses callers pass, each breaking one assumption a codec could make about its input. */
class FixedSize extends Uint8Array {
  // Its constructor ignores what it is given: `new this.constructor(n)` or species-created
  // arrays come out 4 bytes long.
  constructor(..._args: unknown[]) {
    super(4);
  }
}
class ArraySpecies extends Uint8Array {
  static get [Symbol.species]() {
    return Array as never;
  }
}
class Lying extends Uint8Array {
  override get length() {
    return 1;
  }
  override subarray(): never {
    throw new Error("the caller's subarray ran");
  }
}

describe("bytesOf", () => {
  it("returns a plain Uint8Array itself", () => {
    const plain = new Uint8Array(8);
    expect(bytesOf(plain)).toBe(plain);
    const shared = new Uint8Array(new SharedArrayBuffer(8), 2, 4);
    expect(bytesOf(shared)).toBe(shared);
    const empty = new Uint8Array(0);
    expect(bytesOf(empty)).toBe(empty);
  });

  it("views a subclass plainly over the same memory, without calling its methods", () => {
    const memory = new Uint8Array(16).map((_, i) => i);
    const cases: Uint8Array[] = [
      Buffer.from(memory.buffer, 3, 9),
      new ArraySpecies(memory.buffer, 2, 5),
      new Lying(memory.buffer, 1, 12),
      Object.setPrototypeOf(new Uint8Array(memory.buffer, 4, 6), FixedSize.prototype),
    ];
    for (const given of cases) {
      const view = bytesOf(given);
      expect(Object.getPrototypeOf(view)).toBe(Uint8Array.prototype);
      expect(view.buffer).toBe(memory.buffer);
      expect([view.byteOffset, view.length]).toEqual([
        intrinsic("byteOffset").call(given),
        intrinsic("length").call(given),
      ]);
      // Writes through the view land in the caller's memory.
      view[0] = 0xee;
      expect(memory[view.byteOffset]).toBe(0xee);
    }
  });

  it("refuses what is not a Uint8Array, saying what it got", () => {
    for (const [value, got] of [
      [null, "null"],
      [undefined, "undefined"],
      [[1, 2], "an array"],
      [[], "an array"],
      [10, "number 10"],
      [true, "boolean true"],
      ["abc", "string"],
      [{}, "object"],
      [{ length: 3, 0: 1, 1: 2, 2: 3 }, "object"],
      [new Uint16Array(2), "Uint16Array"],
      [new Uint8ClampedArray(2), "Uint8ClampedArray"],
      [new DataView(new ArrayBuffer(2)), "a DataView"],
      [new ArrayBuffer(2), "object"],
    ] as const) {
      expect(failure(() => bytesOf(value))).toEqual({
        code: "INVALID_ARGUMENT",
        reason: "not-bytes",
        message: `input must be a Uint8Array, got ${got}`,
      });
    }
    expect(failure(() => bytesOf(3, "ssz")).message).toBe("ssz must be a Uint8Array, got number 3");
  });

  it("refuses a Proxy of one and an object that only inherits from one", () => {
    // Both pass `instanceof Uint8Array`; a Proxy's traps are the caller's code.
    const trapped: string[] = [];
    const proxy = new Proxy(new Uint8Array(8), {
      get(target, key) {
        trapped.push(String(key));
        return Reflect.get(target, key);
      },
      getPrototypeOf(target) {
        trapped.push("getPrototypeOf");
        return Reflect.getPrototypeOf(target);
      },
    });
    for (const fake of [proxy, Object.create(Uint8Array.prototype)]) {
      expect(failure(() => bytesOf(fake, "output"))).toEqual({
        code: "INVALID_ARGUMENT",
        reason: "not-bytes",
        message: "output is not a real Uint8Array (a Proxy, or an object that inherits from one)",
      });
    }
    // Only the message's instanceof looked at the Proxy's prototype; nothing read its bytes.
    expect(trapped.filter((key) => key !== "getPrototypeOf")).toEqual([]);
  });

  it("refuses an array whose buffer was transferred away, plain or not", () => {
    for (const make of [
      (b: ArrayBuffer) => new Uint8Array(b),
      (b: ArrayBuffer) => new Uint8Array(b, 2, 3),
      (b: ArrayBuffer) => Buffer.from(b),
    ]) {
      const memory = new ArrayBuffer(8);
      const bytes = make(memory);
      structuredClone(memory, { transfer: [memory] });
      expect(failure(() => bytesOf(bytes))).toEqual({
        code: "INVALID_ARGUMENT",
        reason: "detached",
        message: "input is on a detached ArrayBuffer (transferred or detached before the call)",
      });
    }
  });
});

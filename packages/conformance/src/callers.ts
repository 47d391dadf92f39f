// What callers pass, beyond plain arrays (lifetime.ts has the kinds of memory): Uint8Array
// subclasses whose constructor or `Symbol.species` breaks `subarray`/`slice`, as inputs and as
// outputs; options read through a polluted `Object.prototype`; an array where the options go;
// a detached input; non-bytes given to core's `readUncompressedLength`. Every path of the
// codec (sync, async, into) must answer each the same way: right bytes, or a SnappyError.
import {
  isSnappyError,
  maxCompressedLength,
  readUncompressedLength,
  type SnappyCodec,
  type UncompressOptions,
} from "@snappykit/core";
import type { AddCheck } from "./check.js";
import { mixed, varint } from "./corpus.js";
import { expectSnappyError, fail, sameBytes } from "./expect.js";
import { oracleUncompress } from "./oracle.js";

const GROUP = "what callers pass";

/** A subclass whose constructor ignores the length asked for: `slice`/`subarray` of it are 8 bytes. */
class FixedSize extends Uint8Array {
  constructor() {
    super(8);
  }
}

/** A subclass whose species is `Array`: `slice`/`subarray`/`map` of it throw a TypeError. */
class ArraySpecies extends Uint8Array {
  static get [Symbol.species]() {
    return Array;
  }
}

/** Uint8Array subclasses that break their own methods, each described. */
export const SUBCLASSES = [
  ["a subclass whose constructor takes a fixed size", FixedSize],
  ["a subclass whose Symbol.species is Array", ArraySpecies],
] as const;

/** `bytes` copied into an instance of `Subclass`, made without running its constructor. */
export function asSubclass(bytes: Uint8Array, Subclass: typeof Uint8Array): Uint8Array {
  const out = Reflect.construct(Uint8Array, [bytes.length], Subclass) as Uint8Array;
  Uint8Array.prototype.set.call(out, bytes);
  return out;
}

/**
 * `call`'s result, or a failure naming what it threw when that is not a SnappyError (a
 * TypeError or RangeError escaping from the caller's own methods).
 */
async function settled<T>(call: () => T | Promise<T>, what: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    fail(`${what}: threw ${isSnappyError(error) ? `SnappyError ${error.code}` : String(error)}`);
  }
}

/** `call` must fail with a SnappyError of `code` (and `reason`, when given); returns the reason. */
async function rejects(
  call: () => unknown,
  code: string,
  what: string,
  reason?: string,
): Promise<string> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    if (!isSnappyError(error)) fail(`${what}: threw ${String(error)}, not a SnappyError`);
    if (error.code !== code) fail(`${what}: ${error.code} (${error.message}), expected ${code}`);
    if (reason !== undefined && error.reason !== reason) {
      fail(`${what}: reason ${error.reason}, where the sync call's is ${reason}`);
    }
    return error.reason;
  }
  const got = result instanceof Uint8Array ? `${result.length} bytes` : String(result);
  fail(`${what}: returned ${got} instead of failing with ${code}`);
}

type Call = readonly [string, (input: Uint8Array, options?: unknown) => unknown];

/** Every decoding path of `c` (with a small output for `uncompressInto`), by name. */
function decoders(c: SnappyCodec): Call[] {
  const calls: Call[] = [
    ["uncompress", (input, o) => c.uncompress(input, o as UncompressOptions)],
    ["uncompressedLength", (input, o) => c.uncompressedLength(input, o as UncompressOptions)],
  ];
  const { uncompressAsync, uncompressInto } = c;
  if (uncompressAsync) {
    calls.push(["uncompressAsync", (input, o) => uncompressAsync(input, o as UncompressOptions)]);
  }
  if (uncompressInto) {
    calls.push([
      "uncompressInto",
      (input, o) => uncompressInto(input, new Uint8Array(4096), o as UncompressOptions),
    ]);
  }
  return calls;
}

/** Every encoding path of `c`, by name. */
function encoders(c: SnappyCodec): Call[] {
  const calls: Call[] = [["compress", (input) => c.compress(input)]];
  const { compressAsync, compressInto } = c;
  if (compressAsync) calls.push(["compressAsync", (input) => compressAsync(input)]);
  if (compressInto) {
    calls.push([
      "compressInto",
      (input) => compressInto(input, new Uint8Array(c.maxCompressedLength(input.length) + 64)),
    ]);
  }
  return calls;
}

/** Register the checks of what callers pass. */
export function callerChecks(add: AddCheck): void {
  add(GROUP, "Uint8Array subclasses as input, in every operation", async (c) => {
    for (const size of [0, 144, 100_000]) {
      const data = mixed(size, 1300 + size);
      const compressed = c.compress(data);
      for (const [kind, Subclass] of SUBCLASSES) {
        const input = asSubclass(data, Subclass);
        const stream = asSubclass(compressed, Subclass);
        const what = (op: string) => `${op}(${size} B, ${kind})`;
        // Compressed bytes need not be compress's (a backend may choose differently per
        // call), only decode to the input.
        const check = (out: Uint8Array, op: string) =>
          sameBytes(oracleUncompress(out), data, `oracle(${what(op)})`);
        check(await settled(() => c.compress(input), what("compress")), "compress");
        sameBytes(
          await settled(() => c.uncompress(stream), what("uncompress")),
          data,
          what("uncompress"),
        );
        const length = await settled(
          () => c.uncompressedLength(stream),
          what("uncompressedLength"),
        );
        if (length !== size) fail(`${what("uncompressedLength")}: ${length}, expected ${size}`);
        if (c.compressAsync) {
          const op = "compressAsync";
          check(await settled(() => c.compressAsync!(input), what(op)), op);
        }
        if (c.uncompressAsync) {
          const op = "uncompressAsync";
          sameBytes(await settled(() => c.uncompressAsync!(stream), what(op)), data, what(op));
        }
        if (c.compressInto) {
          const op = "compressInto";
          const out = new Uint8Array(c.maxCompressedLength(size));
          const written = await settled(() => c.compressInto!(input, out), what(op));
          check(out.subarray(0, written), op);
        }
        if (c.uncompressInto) {
          const op = "uncompressInto";
          const out = new Uint8Array(size);
          const written = await settled(() => c.uncompressInto!(stream, out), what(op));
          if (written !== size) fail(`${what(op)}: wrote ${written}, expected ${size}`);
          sameBytes(out, data, what(op));
        }
      }
    }
  });

  add(GROUP, "Uint8Array subclasses as the output of *Into", async (c) => {
    if (!c.compressInto && !c.uncompressInto) return;
    for (const size of [0, 144, 100_000]) {
      const data = mixed(size, 1400 + size);
      const compressed = c.compress(data);
      for (const [kind, Subclass] of SUBCLASSES) {
        const what = (op: string) => `${op}(${size} B) into ${kind}`;
        if (c.compressInto) {
          const op = "compressInto";
          // Filled, so that a codec reporting the whole array written shows as a stream that
          // does not decode.
          const out = asSubclass(new Uint8Array(c.maxCompressedLength(size)).fill(0xee), Subclass);
          const written = await settled(() => c.compressInto!(data, out), what(op));
          const plain = new Uint8Array(out.buffer, out.byteOffset, written);
          sameBytes(oracleUncompress(plain), data, `oracle(${what(op)})`);
        }
        if (c.uncompressInto) {
          const op = "uncompressInto";
          const out = asSubclass(new Uint8Array(size + 16).fill(0xee), Subclass);
          const written = await settled(() => c.uncompressInto!(compressed, out), what(op));
          if (written !== size) fail(`${what(op)}: wrote ${written}, expected ${size}`);
          sameBytes(new Uint8Array(out.buffer, out.byteOffset, size), data, what(op));
        }
      }
    }
  });

  add(GROUP, "a polluted Object.prototype neither lifts maxLength nor breaks a call", async (c) => {
    // 300 MiB declared over a body that could expand to it: only maxLength stops it.
    const declared = 300 * 2 ** 20;
    const preamble = varint(declared);
    const wire = new Uint8Array(preamble.length + Math.ceil((declared * 3) / 64));
    wire.set(preamble);
    const data = mixed(5000, 1500);
    const valid = c.compress(data);
    const proto = Object.prototype as { maxLength?: number };
    proto.maxLength = 2 ** 40;
    try {
      for (const [op, call] of decoders(c)) {
        for (const options of [{}, undefined]) {
          const what = `${op}(300 MiB preamble, ${options ? "{}" : "no options"})`;
          await rejects(() => call(wire, options), "LENGTH_LIMIT", what);
        }
      }
      sameBytes(c.uncompress(valid, {}), data, "uncompress(valid, {})");
      if (c.uncompressAsync) {
        sameBytes(await c.uncompressAsync(valid, {}), data, "uncompressAsync(valid, {})");
      }
    } finally {
      delete proto.maxLength;
    }
  });

  add(GROUP, "an array where the options go is INVALID_ARGUMENT", async (c) => {
    const wire = c.compress(mixed(100, 1600));
    const inherited = Object.assign([], { maxLength: 10 });
    for (const [op, call] of decoders(c)) {
      for (const [name, options] of [
        ["[]", []],
        ["an array with a maxLength", inherited],
      ] as const) {
        await rejects(() => call(wire, options), "INVALID_ARGUMENT", `${op}(wire, ${name})`);
      }
    }
  });

  add(GROUP, "a detached input is INVALID_ARGUMENT, the same in every path", async (c) => {
    const data = mixed(3000, 1700);
    const detached = (bytes: Uint8Array) => {
      const mine = new Uint8Array(bytes);
      structuredClone(mine, { transfer: [mine.buffer] });
      return mine;
    };
    for (const [direction, calls, bytes] of [
      ["compress", encoders(c), data],
      ["uncompress", decoders(c), c.compress(data)],
    ] as const) {
      let first: { op: string; reason: string } | undefined;
      for (const [op, call] of calls) {
        const reason = await rejects(
          () => call(detached(bytes)),
          "INVALID_ARGUMENT",
          `${op}(detached input)`,
          first?.reason,
        );
        first ??= { op, reason };
      }
      if (first && direction === "uncompress" && c.uncompressInto) {
        // A detached output too.
        await rejects(
          () => c.uncompressInto!(c.compress(data), detached(new Uint8Array(data.length))),
          "INVALID_ARGUMENT",
          "uncompressInto(valid, detached output)",
        );
      }
    }
    if (c.compressInto) {
      await rejects(
        () => c.compressInto!(data, detached(new Uint8Array(maxCompressedLength(data.length)))),
        "INVALID_ARGUMENT",
        "compressInto(data, detached output)",
      );
    }
  });

  add(GROUP, "readUncompressedLength (core's) and uncompressedLength refuse non-bytes", (c) => {
    for (const [what, bad] of [
      ['"\\x05abc"', "\x05abc"],
      ["[5, 0]", [5, 0]],
      ["null", null],
      ["undefined", undefined],
      ["a DataView", new DataView(new ArrayBuffer(4))],
    ] as const) {
      expectSnappyError(
        () => readUncompressedLength(bad as never),
        ["INVALID_ARGUMENT"],
        `readUncompressedLength(${what})`,
      );
      expectSnappyError(
        () => c.uncompressedLength(bad as never),
        ["INVALID_ARGUMENT"],
        `uncompressedLength(${what})`,
      );
    }
  });
}

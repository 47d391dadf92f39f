import { SnappyError } from "./errors.js";

// The typed-array intrinsics, taken once at load: reading a caller's array through them
// never runs the caller's code (a subclass's overridden getters or methods, a Proxy's traps),
// and the tag getter tells a real typed array from anything else without throwing.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const intrinsic = (key: PropertyKey) =>
  Object.getOwnPropertyDescriptor(TypedArrayPrototype, key)!.get! as (this: unknown) => unknown;
const tagOf = intrinsic(Symbol.toStringTag);
const bufferOf = intrinsic("buffer") as (this: Uint8Array) => ArrayBufferLike;
const byteOffsetOf = intrinsic("byteOffset") as (this: Uint8Array) => number;
const byteLengthOf = intrinsic("byteLength") as (this: Uint8Array) => number;

/**
 * The caller's bytes as a plain `Uint8Array` over the same memory, read through the
 * intrinsic typed-array getters: a subclass (a `Buffer`, one whose constructor or
 * `Symbol.species` differs, one that overrides `subarray` or `length`) comes back as a plain
 * view, so nothing downstream ever calls the caller's methods; a plain `Uint8Array` comes back
 * as it is.
 * @throws SnappyError `INVALID_ARGUMENT` (`not-bytes`) for anything that is not a
 *   `Uint8Array` (an array, a string, another typed array, a Proxy of one, an object that only
 *   inherits from one), (`detached`) for one whose buffer has been transferred away.
 */
export function bytesOf(input: unknown, what = "input"): Uint8Array {
  if (tagOf.call(input) !== "Uint8Array") notBytes(input, what);
  const bytes = input as Uint8Array;
  // An element read never runs the caller's code (a typed array's elements are its own), and
  // it tells V8's optimiser which kinds of array come here: where only plain ones do, the
  // prototype check below folds to a constant instead of a runtime call (~11 ns, twice per
  // `uncompressInto`: a 144-byte message's guards took 51 ns before this read, ~25 after).
  bytes[0];
  // A detached buffer reads as empty; only an empty view needs telling apart from one.
  if (byteLengthOf.call(bytes) === 0) assertAttached(bufferOf.call(bytes), what);
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype
    ? bytes
    : new Uint8Array(bufferOf.call(bytes), byteOffsetOf.call(bytes), byteLengthOf.call(bytes));
}

function assertAttached(buffer: ArrayBufferLike, what: string): void {
  try {
    // Throws a TypeError on a detached buffer, and only then (Node 20 has no `detached`).
    new Uint8Array(buffer, 0, 0);
  } catch {
    throw new SnappyError(
      "detached",
      `${what} is on a detached ArrayBuffer (transferred or detached before the call)`,
    );
  }
}

// The check runs on every call, often around a call to a backend that costs little more:
// messages are built in separate functions so that it stays small enough to inline.
function notBytes(input: unknown, what: string): never {
  throw new SnappyError(
    "not-bytes",
    input instanceof Uint8Array
      ? `${what} is not a real Uint8Array (a Proxy, or an object that inherits from one)`
      : `${what} must be a Uint8Array, got ${describeValue(input)}`,
  );
}

/** `null`, `number 10`, `string`, `array`…: what a caller passed, for a message. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (ArrayBuffer.isView(value)) return (tagOf.call(value) as string | undefined) ?? "a DataView";
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${value}`;
  return typeof value;
}

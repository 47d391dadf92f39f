import { bytesOf } from "./bytes.js";
import { SnappyError } from "./errors.js";

/**
 * The check every `compressInto`/`uncompressInto` runs before writing: `output` is a
 * `Uint8Array` that does not share memory with `input` (a decoder reading bytes it has
 * just overwritten returns garbage) and holds at least `needed` bytes. Returns `output` as a
 * plain view ({@link bytesOf}), to write through instead of the caller's object. `input` must
 * already be one. A codec that has copied all of `input` before it writes anything may use
 * {@link outputRoom} instead: the contract lets an overlapping output be refused or written
 * exactly as for a copy of the input.
 * @throws SnappyError `INVALID_ARGUMENT` for a non-`Uint8Array` (`not-bytes`, `detached`) or
 *   overlapping arrays (`overlapping-output`), `OUTPUT_TOO_SMALL` when `output.length < needed`.
 */
export function outputSpace(input: Uint8Array, given: Uint8Array, needed: number): Uint8Array {
  const output = bytesOf(given, "output");
  if (
    input.buffer === output.buffer &&
    input.byteOffset < output.byteOffset + output.length &&
    output.byteOffset < input.byteOffset + input.length
  ) {
    throw new SnappyError("overlapping-output", "output overlaps input");
  }
  return holding(output, needed);
}

/**
 * {@link outputSpace} without the overlap check: `output` as a plain view, at least `needed`
 * bytes long.
 * @throws SnappyError `INVALID_ARGUMENT` for a non-`Uint8Array` (`not-bytes`, `detached`),
 *   `OUTPUT_TOO_SMALL` when `output.length < needed`.
 */
export function outputRoom(given: Uint8Array, needed: number): Uint8Array {
  return holding(bytesOf(given, "output"), needed);
}

function holding(output: Uint8Array, needed: number): Uint8Array {
  if (output.length < needed) {
    throw new SnappyError(
      "output-too-small",
      `output has ${output.length} bytes, the operation needs ${needed}`,
      { length: output.length, limit: needed },
    );
  }
  return output;
}

/**
 * True when `bytes` owns its memory: it starts at offset 0 of its `buffer` and covers all of
 * it, so transferring or detaching that buffer affects nothing else and exposes nothing else.
 */
export function ownsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}

/**
 * Bun marks the memory of the Buffers Node-API addons return as untransferable
 * (`structuredClone(..., { transfer })` throws DataCloneError), so there a subclass result
 * is copied out instead of re-viewed: results must be transferable everywhere.
 */
const BUFFERS_UNTRANSFERABLE = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

/**
 * A backend's result as the contract returns it: a plain `Uint8Array` that owns its memory.
 * An owning subclass such as Node's `Buffer` is re-viewed over the same memory (no copy; in
 * Bun a copy, see above), so every codec's results behave alike (`toString()`, `slice()`);
 * a view into a larger buffer (a pool, an oversized scratch array) is copied out, since
 * handing it over would let one result's transfer detach another's bytes.
 */
export function ownedBytes(bytes: Uint8Array): Uint8Array {
  // An empty result may sit on a detached buffer, which cannot be viewed again (Bun's
  // Node-API returns zero-length Buffers that way): a fresh empty array is the same result.
  if (bytes.length === 0) return new Uint8Array(0);
  // new Uint8Array(view) copies into a fresh plain array; `.slice()` would keep a Buffer a
  // Buffer (its species), and Buffer#slice does not even copy.
  if (!ownsBuffer(bytes)) return new Uint8Array(bytes);
  if (Object.getPrototypeOf(bytes) === Uint8Array.prototype) return bytes;
  return BUFFERS_UNTRANSFERABLE
    ? new Uint8Array(bytes)
    : new Uint8Array(bytes.buffer, 0, bytes.length);
}

/** `parts` back to back in one new array (an empty array for no parts). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let pos = 0;
  for (const part of parts) {
    out.set(part, pos);
    pos += part.length;
  }
  return out;
}

/**
 * A result its backend declares fresh (`Backend.freshOutput`: allocated for this call,
 * exactly its length) as a plain `Uint8Array`: the prototype is swapped in place, no new
 * view. {@link ownedBytes} would first read `.buffer`, which on a Buffer a Node-API addon
 * returns is slow in Node 20 (a sizeable part of a gossip-sized snappy@7 call: the bench's
 * adapter-overhead rows show it); the conformance ownership checks prove each declaration
 * instead.
 */
export function retypedBytes(bytes: Uint8Array): Uint8Array {
  if (Object.getPrototypeOf(bytes) === Uint8Array.prototype) return bytes;
  if (BUFFERS_UNTRANSFERABLE || bytes.length === 0) return ownedBytes(bytes);
  return Object.setPrototypeOf(bytes, Uint8Array.prototype) as Uint8Array;
}

// Checks that every array a codec hands back is a plain Uint8Array owning its memory. A
// result that views a shared pool breaks callers that transfer buffers to workers: after
// `postMessage(a, [a.buffer])` every other view of that pool reads as empty.
import type { SnappyCodec } from "@snappykit/core";
import type { AddCheck } from "./check.js";
import { randomBytes, repeating } from "./corpus.js";
import { fail, sameBytes } from "./expect.js";

const GROUP = "output ownership";

/** Small sizes are where pools live (Node pools Buffers under 4 KiB); 70,000 crosses 64 KiB. */
const SIZES = [0, 1, 18, 144, 1000, 5000, 70_000];

/**
 * Past the 256 KiB above which napi hands over its own (external) buffer, which Node 22 and
 * later cannot transfer: checked on its own, since the checks above compare every result with
 * every other.
 */
const LARGE = 300_000;

/**
 * Every kind of result the codec can return for `data`, each with a snapshot of its bytes
 * (correctness is checked elsewhere; here only that they stay put).
 */
async function results(c: SnappyCodec, data: Uint8Array): Promise<Result[]> {
  const result = c.compress(data);
  const compressed = asInput(data, result);
  const out: [string, Uint8Array][] = [
    ["compress", result],
    ["uncompress", c.uncompress(compressed)],
  ];
  if (c.compressAsync) out.push(["compressAsync", await c.compressAsync(data)]);
  if (c.uncompressAsync) out.push(["uncompressAsync", await c.uncompressAsync(compressed)]);
  const kind = Object.getPrototypeOf(data) === Uint8Array.prototype ? "" : " Buffer";
  return out.map(([op, bytes]) => ({
    what: `${op}(${data.length} B${kind})`,
    bytes,
    expected: new Uint8Array(bytes),
  }));
}

interface Result {
  readonly what: string;
  readonly bytes: Uint8Array;
  readonly expected: Uint8Array;
}

// Node's Buffer where the runtime has one: Buffer.from of a small array is a view into a
// shared pool, and a backend may answer a Buffer in kind (snappyjs slices a larger one).
const NodeBuffer = (globalThis as { Buffer?: { from(bytes: Uint8Array): Uint8Array } }).Buffer;

/** `bytes` as the same kind of array as `like` (a Buffer input gets a Buffer to decode). */
const asInput = (like: Uint8Array, bytes: Uint8Array) =>
  NodeBuffer && Object.getPrototypeOf(like) !== Uint8Array.prototype
    ? NodeBuffer.from(bytes)
    : bytes;

/** Transfer a result's buffer the way a worker handoff does; its bytes must arrive intact. */
function transfer({ what, bytes, expected }: Result): void {
  let moved: Uint8Array;
  try {
    moved = structuredClone(bytes, { transfer: [bytes.buffer as ArrayBuffer] });
  } catch (error) {
    fail(`${what}: its buffer cannot be transferred (${String(error)})`);
  }
  // Node 20 "transfers" a Node-API external buffer by copying it and leaving it attached.
  if (bytes.buffer.byteLength !== 0) {
    fail(`${what}: transferring its buffer copied it instead of moving it (still attached)`);
  }
  sameBytes(moved, expected, `${what}, after transferring it`);
}

const inputs = () =>
  SIZES.flatMap((n) => {
    const plain =
      n === 0 ? [new Uint8Array(0)] : [randomBytes(n, 600 + n), repeating(n, "gossip ")];
    return NodeBuffer ? [...plain, ...plain.map((b) => NodeBuffer.from(b))] : plain;
  });

/** Register the ownership checks. */
export function ownershipChecks(add: AddCheck): void {
  add(GROUP, "results are plain Uint8Arrays (not Buffers or other subclasses)", async (c) => {
    for (const data of inputs()) {
      for (const { what, bytes } of await results(c, data)) {
        const proto = Object.getPrototypeOf(bytes) as object | null;
        if (proto !== Uint8Array.prototype) {
          const name = (proto as { constructor?: { name?: string } } | null)?.constructor?.name;
          fail(`${what}: returned a ${name ?? "non-Uint8Array"}, not a plain Uint8Array`);
        }
      }
    }
  });

  add(GROUP, "each result's buffer holds exactly its bytes (offset 0, no slab)", async (c) => {
    for (const data of inputs()) {
      for (const { what, bytes } of await results(c, data)) {
        if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.byteLength) {
          fail(
            `${what}: a ${bytes.byteLength}-byte view at offset ${bytes.byteOffset} of a ` +
              `${bytes.buffer.byteLength}-byte buffer (exposes or shares other bytes)`,
          );
        }
      }
    }
  });

  add(GROUP, `a result of over 256 KiB can be transferred too (${LARGE} B)`, async (c) => {
    for (const result of await results(c, repeating(LARGE, "gossip "))) transfer(result);
  });

  add(GROUP, "transferring one result's buffer leaves every other result intact", async (c) => {
    const all: Result[] = [];
    for (const data of inputs()) all.push(...(await results(c, data)));
    // Transfer each in turn, the way a worker handoff does, and check the rest after each.
    for (let i = 0; i < all.length; i++) {
      transfer(all[i]!);
      for (const other of all.slice(i + 1)) {
        sameBytes(other.bytes, other.expected, `${other.what}, after transferring ${all[i]!.what}`);
      }
    }
    // And the codec still works afterwards (a pooled codec may hand out a detached slab).
    const data = randomBytes(100, 77);
    sameBytes(c.uncompress(c.compress(data)), data, "a round trip after the transfers");
  });
}

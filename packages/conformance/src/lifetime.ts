// How callers really hand over memory: async calls whose input the caller overwrites or
// transfers before the promise settles (a pooled network buffer, a worker hand-off), and
// every kind of array a runtime produces (Node's pooled Buffers, views at an offset,
// SharedArrayBuffer, resizable buffers). Each check compares with the sync API on a plain
// copy of the same bytes.
import { isSnappyError, maxCompressedLength, type SnappyCodec } from "@snappykit/core";
import { hostileCases } from "./cases.js";
import type { AddCheck } from "./check.js";
import { mixed, randomBytes } from "./corpus.js";
import { arrayBufferBytes, expectSnappyError, fail, sameBytes } from "./expect.js";

const GROUP = "calling patterns";

type AsyncOp = "compressAsync" | "uncompressAsync";

/** What an async op gets and must return for `data`, from the sync API. */
function asyncCase(c: SnappyCodec, op: AsyncOp, data: Uint8Array) {
  const compressed = c.compress(data);
  return op === "compressAsync"
    ? { input: data, expected: compressed }
    : { input: compressed, expected: data };
}

const asyncOps = (c: SnappyCodec): AsyncOp[] =>
  (["compressAsync", "uncompressAsync"] as const).filter((op) => c[op] !== undefined);

const TILE = 1 << 20;
const samples = new Map<string, Uint8Array>();

/**
 * `size` bytes of mixed data (random and text runs), different for each `k`; built from a
 * 1 MiB tile and kept, since the 32 MiB inputs are made for every codec and variant (a
 * byte-by-byte generator took most of a check's time on a loaded machine).
 */
function sample(size: number, k: number): Uint8Array {
  const key = `${size}/${k}`;
  let bytes = samples.get(key);
  if (!bytes) {
    const tile = mixed(Math.min(size, TILE), k);
    bytes = new Uint8Array(size);
    for (let at = 0; at < size; at += tile.length) {
      bytes.set(tile.subarray(0, Math.min(tile.length, size - at)), at);
      tile[0] = (tile[0]! + 1) & 0xff; // no two tiles alike: no copy spans a whole tile
    }
    samples.set(key, bytes);
  }
  return bytes;
}

/** `gc()` where the runtime exposes it (`node --expose-gc`; vitest.shared.ts passes it). */
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/**
 * Start `count` calls of `op` at once, doing `after` to each input as soon as its call has
 * returned (before any settles), then check every result against the sync API's.
 */
async function afterEachCall(
  c: SnappyCodec,
  sizes: readonly number[],
  count: number,
  after: (input: Uint8Array) => void,
  what: string,
): Promise<void> {
  for (const op of asyncOps(c)) {
    for (const size of sizes) {
      // One call for the largest: several at once only add minutes on a loaded machine.
      const calls = size > TILE ? 1 : count;
      const cases = Array.from({ length: calls }, (_, k) => asyncCase(c, op, sample(size, k)));
      const pending = cases.map(({ input }) => {
        // A copy of its own, so that `after` may destroy it.
        const mine = new Uint8Array(input);
        const promise = c[op]!(mine);
        after(mine);
        return promise;
      });
      collect();
      const results = await Promise.allSettled(pending);
      results.forEach((result, k) => {
        const label = `${op}(${size} B) #${k}, ${what}`;
        if (result.status === "rejected") fail(`${label}: rejected: ${String(result.reason)}`);
        sameBytes(result.value, cases[k]!.expected, label);
      });
    }
  }
}

/**
 * A copy of `bytes` in each kind of memory a caller may pass, named: a plain array, a view at
 * an offset, a pooled Buffer (Node), a SharedArrayBuffer view and a length-tracking view of a
 * resizable buffer. Each call makes fresh copies.
 */
export function inputKinds(bytes: Uint8Array): [string, Uint8Array][] {
  const kinds: [string, Uint8Array][] = [["plain", bytes.slice()]];
  const padded = new Uint8Array(bytes.length + 19).fill(0xee);
  padded.set(bytes, 11);
  kinds.push(["view at an offset", padded.subarray(11, 11 + bytes.length)]);
  const NodeBuffer = (globalThis as { Buffer?: { from(b: Uint8Array): Uint8Array } }).Buffer;
  // Buffer.from copies a small array into Node's shared 8 KiB pool: a view at an offset of a
  // buffer other Buffers share.
  if (NodeBuffer) kinds.push(["Buffer (pooled when small)", NodeBuffer.from(bytes)]);
  if (typeof SharedArrayBuffer !== "undefined") {
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length + 8), 8, bytes.length);
    shared.set(bytes);
    kinds.push(["SharedArrayBuffer view", shared]);
  }
  const resizable = new ArrayBuffer(bytes.length, { maxByteLength: bytes.length + 4096 });
  const tracking = new Uint8Array(resizable);
  tracking.set(bytes);
  kinds.push(["length-tracking view of a resizable buffer", tracking]);
  return kinds;
}

/** An output array of `length` bytes in the memory of input kind `kind`. */
function outputLike(kind: string, length: number): Uint8Array {
  const [, sample] = inputKinds(new Uint8Array(length)).find(([k]) => k === kind)!;
  return sample;
}

/** Register the calling-pattern checks. */
export function lifetimeChecks(add: AddCheck): void {
  add(GROUP, "async: the input overwritten right after the call does not change the result", (c) =>
    afterEachCall(c, [4096, 65_537, 1 << 20], 4, (input) => input.fill(0xa5), "input overwritten"),
  );

  add(GROUP, "async: the input's buffer transferred and collected right after the call", (c) =>
    // 32 MiB: where a thread pool still reading a freed buffer crashed the process every run.
    afterEachCall(
      c,
      [65_537, 1 << 20, 32 << 20],
      2,
      (input) => structuredClone(input, { transfer: [input.buffer as ArrayBuffer] }),
      "input transferred",
    ),
  );

  add(GROUP, "async: repeated calls on fresh inputs keep none of them", async (c) => {
    // A library that never releases the input it is given (@napi-rs/snappy@1 does, and the
    // adapter gave it the contract's copy per call) keeps every input: 200 calls of 512 KiB
    // are 100 MiB kept.
    // Measured only where the runtime exposes gc() and array-buffer memory.
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc || arrayBufferBytes() === 0) return;
    const calls = 200;
    const bound = 24 * 2 ** 20;
    for (const op of asyncOps(c)) {
      const { input } = asyncCase(c, op, randomBytes(512 * 1024, 1800));
      // Twice: after one gc() V8 frees dead backing stores concurrently, so some are still
      // counted (up to ~50 MiB here, at random); a second one finishes them.
      const collect = async () => {
        for (let i = 0; i < 2; i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          gc();
        }
      };
      await c[op]!(new Uint8Array(input));
      await collect();
      const before = arrayBufferBytes();
      for (let k = 0; k < calls; k++) await c[op]!(new Uint8Array(input));
      await collect();
      const kept = arrayBufferBytes() - before;
      if (kept > bound) {
        fail(`${op}: ${calls} calls on ${input.length} B kept ${kept} bytes after gc()`);
      }
    }
  });

  add(
    GROUP,
    "async: valid and hostile calls in flight together each get their own answer",
    async (c) => {
      if (!c.uncompressAsync) return;
      const valid = [1, 3000, 70_000, 300_000].map((n) => randomBytes(n, 300 + n));
      const calls: {
        promise: Promise<Uint8Array>;
        expected?: Uint8Array;
        codes?: readonly string[];
        what: string;
      }[] = [];
      hostileCases.forEach((hostile, i) => {
        const data = valid[i % valid.length]!;
        calls.push({
          promise: c.uncompressAsync!(c.compress(data)),
          expected: data,
          what: `valid ${data.length} B`,
        });
        const options =
          hostile.maxLength === undefined ? undefined : { maxLength: hostile.maxLength };
        calls.push({
          promise: c.uncompressAsync!(hostile.bytes, options),
          codes: hostile.codes,
          what: hostile.name,
        });
        if (c.compressAsync) {
          calls.push({
            promise: c.compressAsync(data),
            expected: c.compress(data),
            what: `compressAsync ${data.length} B`,
          });
        }
      });
      const settled = await Promise.allSettled(calls.map((call) => call.promise));
      settled.forEach((result, i) => {
        const { expected, codes, what } = calls[i]!;
        if (expected) {
          if (result.status === "rejected") fail(`${what}: rejected: ${String(result.reason)}`);
          sameBytes(result.value, expected, what);
        } else if (result.status === "fulfilled") {
          fail(`${what}: resolved with ${result.value.length} bytes among concurrent calls`);
        } else if (!isSnappyError(result.reason) || !codes!.includes(result.reason.code)) {
          fail(
            `${what}: rejected with ${String(result.reason)}, expected SnappyError ${codes!.join(" or ")}`,
          );
        }
      });
    },
  );

  add(GROUP, "*Into: one output reused while its resizable buffer shrinks and grows", (c) => {
    // A codec that keeps something of the last output (a view, a length) between calls must
    // not trip when the caller's resizable buffer changes under it (ts once threw a
    // TypeError reading a cached DataView of a buffer that had shrunk).
    const data = mixed(3000, 77);
    const compressed = c.compress(data);
    for (const [op, need, run, expected] of [
      [
        "compressInto",
        (c.maxCompressedLength ?? maxCompressedLength)(data.length),
        (out: Uint8Array) => c.compressInto?.(data, out),
        compressed,
      ],
      [
        "uncompressInto",
        data.length,
        (out: Uint8Array) => c.uncompressInto?.(compressed, out),
        data,
      ],
    ] as const) {
      if (!c[op]) continue;
      const memory = new ArrayBuffer(2 * need, { maxByteLength: 4 * need });
      const tracking = new Uint8Array(memory);
      const fixed = new Uint8Array(memory, 0, need + 8);
      for (const [size, output] of [
        [2 * need, tracking],
        [need, tracking],
        [4 * need, tracking],
        [need + 8, fixed],
        [need, fixed], // the fixed view is now out of bounds: length 0
        [3 * need, fixed],
      ] as const) {
        memory.resize(size);
        const what = `${op} into a ${output === fixed ? "fixed" : "length-tracking"} view, buffer resized to ${size}`;
        if (output.length < need) {
          expectSnappyError(() => run(output), ["OUTPUT_TOO_SMALL"], what);
          continue;
        }
        const written = run(output)!;
        sameBytes(output.subarray(0, written), expected, what);
      }
    }
  });

  add(GROUP, "every kind of array, as input and as output, in every operation", async (c) => {
    for (const size of [0, 144, 5000, 70_000]) {
      const data = mixed(size, 900 + size);
      const compressed = c.compress(data);
      for (const [kind, input] of inputKinds(data)) {
        const what = (op: string) => `${op}(${size} B, ${kind})`;
        sameBytes(c.compress(input), compressed, what("compress"));
        const [, stream] = inputKinds(compressed).find(([k]) => k === kind)!;
        sameBytes(c.uncompress(stream), data, what("uncompress"));
        if (c.uncompressedLength && c.uncompressedLength(stream) !== size) {
          fail(`${what("uncompressedLength")}: not ${size}`);
        }
        if (c.compressAsync)
          sameBytes(await c.compressAsync(input), compressed, what("compressAsync"));
        if (c.uncompressAsync)
          sameBytes(await c.uncompressAsync(stream), data, what("uncompressAsync"));
        if (c.compressInto) {
          const out = outputLike(kind, (c.maxCompressedLength ?? maxCompressedLength)(size));
          const written = c.compressInto(input, out);
          sameBytes(out.subarray(0, written), compressed, what("compressInto"));
        }
        if (c.uncompressInto) {
          const out = outputLike(kind, size);
          if (c.uncompressInto(stream, out) !== size)
            fail(`${what("uncompressInto")}: not ${size}`);
          sameBytes(out, data, what("uncompressInto"));
        }
      }
    }
  });
}

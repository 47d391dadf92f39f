// Checks for the optional capabilities, each run only when the codec declares it:
// uncompressedLength, maxCompressedLength, compressInto and uncompressInto. Caller-owned
// output is where a bug turns into silent corruption of the caller's other data, so every
// write is checked against a sentinel fill on both sides of the range the codec may touch.
import {
  isSnappyError,
  readUncompressedLength,
  type SnappyCodec,
  type UncompressOptions,
} from "@snappykit/core";
import { hostileCases, validStreams } from "./cases.js";
import type { AddCheck, PayloadSet } from "./check.js";
import { builtinCorpus, mutations, randomBytes, varint } from "./corpus.js";
import { expectSnappyError, fail, sameBytes } from "./expect.js";
import { oracleUncompress } from "./oracle.js";

const GROUP = "caller-owned output";
const SENTINEL = 0xa5;
/** Sentinel bytes kept on each side of the caller's output array. */
const MARGIN = 32;
/** Largest output array a hostile case gets: its claim beyond this must be refused. */
const HOSTILE_ROOM = 1 << 20;

/**
 * An into-call whose output overlaps its input, in each way it can: starting 1 byte and half
 * the input after it, 50 bytes before it, at the same byte. Either answer is correct: refusing
 * it (`INVALID_ARGUMENT`, nothing written) or writing exactly `expected`, what the call writes
 * for a copy of the input, and nothing else. A codec that copies its input before writing
 * needs no check; one that reads as it writes must refuse.
 */
function overlapping(
  what: string,
  into: (input: Uint8Array, output: Uint8Array) => number,
  source: Uint8Array,
  expected: Uint8Array,
  room: number,
) {
  const placements = [
    [0, 1],
    [0, source.length >> 1],
    [50, 0],
    [0, 0],
  ] as const;
  for (const [inputAt, outputAt] of placements) {
    const memory = new Uint8Array(Math.max(inputAt + source.length, outputAt + room) + MARGIN);
    memory.fill(SENTINEL).set(source, inputAt);
    const before = memory.slice();
    const input = memory.subarray(inputAt, inputAt + source.length);
    const label = `${what}: output at byte ${outputAt}, input at ${inputAt} of one buffer`;
    let written: number;
    try {
      written = into(input, memory.subarray(outputAt, outputAt + room));
    } catch (error) {
      expectSnappyError(
        () => {
          throw error;
        },
        ["INVALID_ARGUMENT"],
        label,
      );
      sameBytes(memory, before, `${label}: refused after writing`);
      continue;
    }
    if (written !== expected.length) fail(`${label}: returned ${written}, not ${expected.length}`);
    sameBytes(
      memory.subarray(outputAt, outputAt + written),
      expected,
      `${label}: not as if copied`,
    );
    sameBytes(memory.subarray(0, outputAt), before.subarray(0, outputAt), `${label}: wrote before`);
    const end = outputAt + written;
    sameBytes(memory.subarray(end), before.subarray(end), `${label}: wrote past its bytes`);
  }
}

/**
 * A caller's output array of `length` bytes, viewed at an offset inside a larger buffer
 * filled with a sentinel, and a check that nothing outside `[0, written)` of it changed.
 */
function guarded(length: number) {
  const memory = new Uint8Array(length + 2 * MARGIN).fill(SENTINEL);
  const output = memory.subarray(MARGIN, MARGIN + length);
  return {
    output,
    untouchedFrom(written: number, what: string) {
      for (let i = 0; i < memory.length; i++) {
        if (i >= MARGIN && i < MARGIN + written) continue;
        if (memory[i] !== SENTINEL) {
          fail(
            `${what}: wrote at output[${i - MARGIN}], outside the ${written} bytes it may write`,
          );
        }
      }
    },
  };
}

/** The declared length, or undefined when the preamble itself is bad. */
function declaredLength(bytes: Uint8Array): number | undefined {
  try {
    return readUncompressedLength(bytes).length;
  } catch {
    return undefined;
  }
}

const requireMember = <K extends keyof SnappyCodec>(c: SnappyCodec, key: K, because: string) => {
  const member = c[key];
  if (typeof member !== "function") fail(`${because}, but the codec has no ${String(key)}`);
  return member as NonNullable<SnappyCodec[K]>;
};

/** Register the capability checks; `payloads` adds real data to the exact-bytes checks. */
export function capabilityChecks(add: AddCheck, payloads: readonly PayloadSet[]): void {
  const samples = () => [
    ...builtinCorpus().map((item) => ({ name: item.name, bytes: item.bytes })),
    ...payloads.flatMap((p) =>
      p.items.slice(0, 3).map((bytes, i) => ({ name: `${p.name}[${i}]`, bytes })),
    ),
  ];

  add(GROUP, "uncompressedLength reads the declared length and validates it", (c) => {
    const length = c.uncompressedLength;
    if (!length) return;
    for (const { name, bytes } of samples()) {
      const got = length(c.compress(bytes));
      if (got !== bytes.length)
        fail(`${name}: uncompressedLength ${got}, expected ${bytes.length}`);
    }
    for (const stream of validStreams) {
      if (length(stream.bytes) !== stream.expected.length) fail(`${stream.name}: wrong length`);
    }
    const bad: [string, Uint8Array, readonly string[], UncompressOptions?][] = [
      ["empty input", new Uint8Array(0), ["CORRUPT_INPUT"]],
      ["truncated varint", Uint8Array.of(0x80), ["CORRUPT_INPUT"]],
      ["overlong varint", Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0), ["CORRUPT_INPUT"]],
      [
        "4 GiB claimed by a 5-byte body",
        Uint8Array.from([...varint(2 ** 32 - 1), 0, 0, 0, 0, 0]),
        ["CORRUPT_INPUT", "LENGTH_LIMIT"],
      ],
      ["over maxLength", c.compress(randomBytes(100, 5)), ["LENGTH_LIMIT"], { maxLength: 99 }],
      ["not a Uint8Array", "abc" as never, ["INVALID_ARGUMENT"]],
    ];
    for (const [what, bytes, codes, options] of bad) {
      expectSnappyError(() => length(bytes, options), codes, `uncompressedLength: ${what}`);
    }
  });

  add(GROUP, "maxCompressedLength bounds every compressed size", (c) => {
    const bound = c.maxCompressedLength;
    if (!bound) return;
    const incompressible = [0, 1, 15, 16, 17, 100, 4095, 65_536, 65_537, 300_000];
    const inputs = [
      ...samples().map((s) => s.bytes),
      ...incompressible.map((n) => randomBytes(n, 900 + n)),
    ];
    for (const bytes of inputs) {
      const room = bound(bytes.length);
      if (!Number.isSafeInteger(room)) fail(`maxCompressedLength(${bytes.length}) is ${room}`);
      const size = c.compress(bytes).length;
      if (size > room) fail(`compressed ${bytes.length} B to ${size}, over its bound ${room}`);
    }
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 32]) {
      expectSnappyError(() => bound(bad), ["INVALID_ARGUMENT"], `maxCompressedLength(${bad})`);
    }
  });

  add(GROUP, "compressInto writes compress's bytes and nothing past them", (c) => {
    const into = c.compressInto;
    if (!into) return;
    const bound = requireMember(c, "maxCompressedLength", "it declares compressInto");
    for (const { name, bytes } of samples()) {
      const expected = c.compress(bytes);
      // Exactly the room it asks for, and more than that: both must work the same.
      for (const extra of [0, 100]) {
        const out = guarded(bound(bytes.length) + extra);
        const written = into(bytes, out.output);
        if (written !== expected.length) {
          fail(`${name}: compressInto returned ${written}, compress wrote ${expected.length}`);
        }
        sameBytes(out.output.subarray(0, written), expected, `${name}: compressInto`);
        out.untouchedFrom(written, `${name}: compressInto`);
      }
    }
  });

  add(
    GROUP,
    "compressInto refuses too small output before writing; overlap refused or exact",
    (c) => {
      const into = c.compressInto;
      if (!into) return;
      const bound = requireMember(c, "maxCompressedLength", "it declares compressInto");
      for (const n of [0, 10, 5000]) {
        // Compressible input: it would fit, yet the room is under the declared bound.
        const data = new Uint8Array(n);
        const out = guarded(bound(n) - 1);
        expectSnappyError(() => into(data, out.output), ["OUTPUT_TOO_SMALL"], `${n} B, bound - 1`);
        out.untouchedFrom(0, `compressInto(${n} B) into bound - 1`);
      }
      const data = randomBytes(100, 8);
      expectSnappyError(() => into(data, "x" as never), ["INVALID_ARGUMENT"], "output a string");
      expectSnappyError(
        () => into("x" as never, new Uint8Array(64)),
        ["INVALID_ARGUMENT"],
        "input a string",
      );
      overlapping("compressInto", into, data, c.compress(data), bound(data.length));
    },
  );

  add(GROUP, "uncompressInto decodes exactly and writes nothing past the length", (c) => {
    const into = c.uncompressInto;
    if (!into) return;
    const cases = [
      ...samples().map(({ name, bytes }) => ({ name, stream: c.compress(bytes), expected: bytes })),
      ...validStreams.map((s) => ({ name: s.name, stream: s.bytes, expected: s.expected })),
      ...payloads.flatMap((p) =>
        (p.golden ?? []).slice(0, 3).map((stream, i) => ({
          name: `${p.name}[${i}] golden`,
          stream,
          expected: p.items[i]!,
        })),
      ),
    ];
    for (const { name, stream, expected } of cases) {
      for (const extra of [0, 100]) {
        const out = guarded(expected.length + extra);
        const written = into(stream, out.output);
        if (written !== expected.length) {
          fail(`${name}: uncompressInto returned ${written}, expected ${expected.length}`);
        }
        sameBytes(out.output.subarray(0, written), expected, `${name}: uncompressInto`);
        out.untouchedFrom(written, `${name}: uncompressInto`);
      }
    }
    const stream = c.compress(randomBytes(1000, 9));
    const exact = guarded(1000);
    into(stream, exact.output, { maxLength: 1000 });
    expectSnappyError(
      () => into(stream, exact.output, { maxLength: 999 }),
      ["LENGTH_LIMIT"],
      "uncompressInto over maxLength",
    );
  });

  add(
    GROUP,
    "uncompressInto refuses too small output before writing; overlap refused or exact",
    (c) => {
      const into = c.uncompressInto;
      if (!into) return;
      for (const n of [1, 100, 70_000]) {
        const stream = c.compress(randomBytes(n, 10 + n));
        const out = guarded(n - 1);
        expectSnappyError(
          () => into(stream, out.output),
          ["OUTPUT_TOO_SMALL"],
          `${n} B into n - 1`,
        );
        out.untouchedFrom(0, `uncompressInto(${n} B) into n - 1`);
      }
      const stream = c.compress(randomBytes(100, 11));
      expectSnappyError(() => into(stream, "x" as never), ["INVALID_ARGUMENT"], "output a string");
      expectSnappyError(
        () => into("x" as never, new Uint8Array(64)),
        ["INVALID_ARGUMENT"],
        "input a string",
      );
      const data = randomBytes(100, 11);
      overlapping("uncompressInto", into, stream, data, data.length);
      // A compressible stream decodes to more than it reads: its output runs past the input.
      const text = new TextEncoder().encode("overlap ".repeat(40));
      overlapping("uncompressInto", into, c.compress(text), text, text.length);
    },
  );

  add(GROUP, "uncompressInto rejects every hostile case, within the declared length", (c) => {
    const into = c.uncompressInto;
    if (!into) return;
    for (const hostile of hostileCases) {
      const declared = declaredLength(hostile.bytes);
      const room = Math.min(declared ?? 64, HOSTILE_ROOM);
      // Refusing a claim the output cannot hold is as good as refusing the stream.
      const codes =
        declared !== undefined && declared > room
          ? [...hostile.codes, "OUTPUT_TOO_SMALL"]
          : hostile.codes;
      const out = guarded(room);
      const options =
        hostile.maxLength === undefined ? undefined : { maxLength: hostile.maxLength };
      expectSnappyError(() => into(hostile.bytes, out.output, options), codes, hostile.name);
      out.untouchedFrom(Math.min(declared ?? 0, room), `uncompressInto: ${hostile.name}`);
    }
  });

  add(GROUP, "uncompressInto agrees with the spec on mutated input", (c) => {
    const into = c.uncompressInto;
    if (!into) return;
    const seeds = [randomBytes(200, 61), new TextEncoder().encode("attestation ".repeat(300))];
    seeds.forEach((data, s) => {
      for (const m of mutations(c.compress(data), 150, 700 + s)) {
        const declared = declaredLength(m);
        let expected: Uint8Array | undefined;
        try {
          expected = oracleUncompress(m);
        } catch {
          expected = undefined;
        }
        const room = Math.min(declared ?? 64, HOSTILE_ROOM);
        const out = guarded(room);
        let written: number;
        try {
          written = into(m, out.output);
        } catch (error) {
          if (!isSnappyError(error)) fail(`mutation: threw a non-SnappyError: ${String(error)}`);
          if (expected && error.code !== "OUTPUT_TOO_SMALL") {
            fail(`mutation: rejected a valid stream: ${error.message}`);
          }
          out.untouchedFrom(Math.min(declared ?? 0, room), "mutation (rejected)");
          continue;
        }
        if (!expected) fail(`mutation: accepted a stream the spec rejects (${written} bytes)`);
        sameBytes(out.output.subarray(0, written), expected, "mutation");
        out.untouchedFrom(written, "mutation");
      }
    });
  });
}

// The conformance checks as plain functions over a codec, independent of any test runner:
// `runConformance` registers them with vitest, and the suite's own tests run them against
// deliberately broken codecs to prove each check can fail.
import {
  isSnappyError,
  maxCompressedLength,
  type SnappyCodec,
  type UncompressOptions,
} from "@snappykit/core";
import { boundaryChecks } from "./boundaries.js";
import { callerChecks } from "./callers.js";
import { capabilityChecks } from "./capabilities.js";
import { hostileCases, validStreams } from "./cases.js";
import type { AddCheck, Check, PayloadSet } from "./check.js";
import { builtinCorpus, type CorpusItem, mutations, prng, randomBytes } from "./corpus.js";
import { expectSnappyError, fail, hex, sameBytes } from "./expect.js";
import { legalFormChecks } from "./legal.js";
import { lifetimeChecks } from "./lifetime.js";
import { oracleUncompress } from "./oracle.js";
import { ownershipChecks } from "./ownership.js";
import type { BoundaryPlan } from "./sizes.js";

/** Extra inputs for the round-trip and golden checks. */
export interface ConformanceInputs {
  /** More round-trip inputs besides the built-in corpus. */
  readonly corpus?: readonly CorpusItem[];
  /** Real payloads, e.g. every `@snappykit/fixtures` payload with its libsnappy golden vectors. */
  readonly payloads?: readonly PayloadSet[];
  /**
   * Sizes for the boundary checks ({@link boundarySizes} of the code's constants, as
   * `runConformance` reads them); none without.
   */
  readonly boundaries?: BoundaryPlan;
}

function expectRejection(
  codec: SnappyCodec,
  bytes: Uint8Array,
  codes: readonly string[],
  what: string,
  options?: UncompressOptions,
): void {
  expectSnappyError(() => codec.uncompress(bytes, options), codes, what);
}

async function expectAsyncRejection(
  call: () => Promise<unknown>,
  codes: readonly string[],
  what: string,
): Promise<void> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    if (!isSnappyError(error)) fail(`${what}: rejected with ${String(error)}, not SnappyError`);
    if (!codes.includes(error.code))
      fail(`${what}: code ${error.code}, expected ${codes.join(" or ")}`);
    return;
  }
  const got = result instanceof Uint8Array ? `${result.length} bytes` : typeof result;
  fail(`${what}: resolved with ${got} instead of rejecting with ${codes.join(" or ")}`);
}

/** Decoding `input` must match the oracle: the same bytes, or a SnappyError where it rejects. */
function agreeWithOracle(codec: SnappyCodec, input: Uint8Array, what: string): void {
  let expected: Uint8Array | undefined;
  try {
    expected = oracleUncompress(input);
  } catch {
    expected = undefined;
  }
  let actual: Uint8Array;
  try {
    actual = codec.uncompress(input);
  } catch (error) {
    if (!isSnappyError(error)) fail(`${what}: threw a non-SnappyError: ${String(error)}`);
    if (expected) fail(`${what}: rejected a valid stream: ${error.message}`);
    return;
  }
  if (!expected)
    fail(`${what}: accepted a stream the spec rejects (returned ${actual.length} bytes)`);
  sameBytes(actual, expected, what);
}

/** Every check the suite runs, in order. */
export function conformanceChecks(inputs: ConformanceInputs = {}): Check[] {
  const checks: Check[] = [];
  const add: AddCheck = (group, name, run) => checks.push({ group, name, run });

  add("contract", "declares contractVersion 1, a name, its library@version and runtime", (c) => {
    if (c.contractVersion !== 1) fail(`contractVersion is ${String(c.contractVersion)}`);
    if (typeof c.name !== "string" || !/^[a-z0-9-]+$/.test(c.name)) fail(`bad name ${c.name}`);
    if (!/^(@[^/]+\/)?[^@]+@\d+\.\d+\.\d+/.test(c.library)) {
      fail(`library "${c.library}" is not name@version`);
    }
    if (!["native", "wasm", "js"].includes(c.runtime)) fail(`bad runtime ${c.runtime}`);
  });

  const corpus = [...builtinCorpus(), ...(inputs.corpus ?? [])];
  for (const item of corpus) {
    add("round trip", item.name, (c) => {
      const compressed = c.compress(item.bytes);
      if (!(compressed instanceof Uint8Array)) fail("compress did not return a Uint8Array");
      if (compressed.length > maxCompressedLength(item.bytes.length)) {
        fail(`compressed to ${compressed.length} bytes, over maxCompressedLength`);
      }
      sameBytes(c.uncompress(compressed), item.bytes, "uncompress(compress(x))");
      // The oracle proves the encoder wrote real Snappy, not a private format that its own
      // decoder happens to understand.
      sameBytes(oracleUncompress(compressed), item.bytes, "oracle(compress(x))");
    });
  }

  for (const stream of validStreams) {
    add("decodes every element form", stream.name, (c) => {
      sameBytes(c.uncompress(stream.bytes), stream.expected, stream.name);
    });
  }

  for (const payload of inputs.payloads ?? []) {
    add("round trip", `fixture ${payload.name} (${payload.items.length} items)`, (c) => {
      payload.items.forEach((item, i) => {
        const compressed = c.compress(item);
        sameBytes(c.uncompress(compressed), item, `${payload.name}[${i}] round trip`);
        sameBytes(oracleUncompress(compressed), item, `${payload.name}[${i}] oracle`);
      });
    });
    const { golden } = payload;
    if (!golden) continue;
    add("decodes libsnappy output", `fixture ${payload.name}`, (c) => {
      if (golden.length !== payload.items.length) fail("golden and items differ in count");
      golden.forEach((stream, i) => {
        sameBytes(c.uncompress(stream), payload.items[i]!, `${payload.name}[${i}] golden`);
      });
    });
  }

  for (const hostile of hostileCases) {
    add("rejects bad input with SnappyError", hostile.name, (c) => {
      const options =
        hostile.maxLength === undefined ? undefined : { maxLength: hostile.maxLength };
      expectRejection(c, hostile.bytes, hostile.codes, hostile.name, options);
    });
  }

  add(
    "rejects bad input with SnappyError",
    "maxLength: a limit exactly at the length passes",
    (c) => {
      const data = randomBytes(1000, 3);
      sameBytes(c.uncompress(c.compress(data), { maxLength: 1000 }), data, "maxLength = length");
      expectRejection(c, c.compress(data), ["LENGTH_LIMIT"], "maxLength = length - 1", {
        maxLength: 999,
      });
    },
  );

  add("rejects bad input with SnappyError", "non-Uint8Array arguments", (c) => {
    // A Proxy of a Uint8Array passes `instanceof`, and then every typed-array method throws
    // a TypeError on it.
    const fakes: [string, unknown][] = [
      ["null", null],
      ["undefined", undefined],
      ['"abc"', "abc"],
      ["[1, 2, 3]", [1, 2, 3]],
      ["42", 42],
      ["a Proxy of a Uint8Array", new Proxy(randomBytes(20, 1), {})],
      ["an object inheriting from Uint8Array", Object.create(Uint8Array.prototype)],
    ];
    for (const [what, bad] of fakes) {
      for (const op of ["compress", "uncompress"] as const) {
        expectSnappyError(
          () => (c[op] as (x: unknown) => unknown)(bad),
          ["INVALID_ARGUMENT"],
          `${op}(${what})`,
        );
      }
    }
  });

  add("rejects bad input with SnappyError", "options it does not know, and non-objects", (c) => {
    // snappyjs takes maxLength positionally: a caller migrating from it must not lose the
    // limit it believes is in force, nor one who misspells it.
    const wire = c.compress(randomBytes(100, 2));
    const bad: [string, unknown][] = [
      ["10 (a positional maxLength)", 10],
      ['"10"', "10"],
      ["null", null],
      ["{ maxlength: 10 }", { maxlength: 10 }],
      ["{ maxLength: 10, limit: 5 }", { maxLength: 10, limit: 5 }],
    ];
    for (const [what, options] of bad) {
      for (const op of ["uncompress", "uncompressedLength"] as const) {
        const call = c[op] as ((x: Uint8Array, o: unknown) => unknown) | undefined;
        if (!call) continue;
        expectSnappyError(() => call(wire, options), ["INVALID_ARGUMENT"], `${op}(wire, ${what})`);
      }
    }
  });

  add("agrees with the spec on mutated input", "400 mutations of the codec's own output", (c) => {
    const seeds = [randomBytes(200, 21), builtinCorpus()[4]!.bytes, randomBytes(3000, 22)];
    seeds.forEach((data, s) => {
      for (const m of mutations(c.compress(data), 100, 100 + s)) {
        agreeWithOracle(c, m, `mutated stream ${hex(m)}`);
      }
    });
    for (const m of mutations(validStreams[3]!.bytes, 100, 99)) {
      agreeWithOracle(c, m, `mutated stream ${hex(m)}`);
    }
  });

  add("agrees with the spec on mutated input", "300 random inputs of 1–64 bytes", (c) => {
    const next = prng(5);
    for (let i = 0; i < 300; i++) {
      const input = randomBytes(1 + Math.floor(next() * 64), 1000 + i);
      agreeWithOracle(c, input, `random input ${hex(input)}`);
    }
  });

  add("contract", "takes Uint8Array views at an offset and Buffers alike", (c) => {
    const data = randomBytes(3000, 41);
    const compressed = c.compress(data);
    // Views whose byteOffset is not 0, inside a larger buffer with other bytes around them.
    const around = (bytes: Uint8Array) => {
      const padded = randomBytes(bytes.length + 13, 42);
      padded.set(bytes, 7);
      return padded.subarray(7, 7 + bytes.length);
    };
    sameBytes(c.compress(around(data)), compressed, "compress(view at offset)");
    sameBytes(c.uncompress(around(compressed)), data, "uncompress(view at offset)");
    if (typeof Buffer !== "undefined") {
      sameBytes(c.uncompress(Buffer.from(compressed)), data, "uncompress(Buffer)");
    }
  });

  add("contract", "async API (where offered) gives the sync API's bytes and errors", async (c) => {
    const data = randomBytes(5000, 51);
    const compressed = c.compress(data);
    if (c.compressAsync) {
      sameBytes(await c.compressAsync(data), compressed, "compressAsync");
      await expectAsyncRejection(
        () => c.compressAsync!("x" as never),
        ["INVALID_ARGUMENT"],
        "compressAsync(string)",
      );
    }
    const uncompressAsync = c.uncompressAsync;
    if (uncompressAsync) {
      sameBytes(await uncompressAsync(compressed), data, "uncompressAsync");
      await expectAsyncRejection(
        () => uncompressAsync(compressed, { maxLength: 4999 }),
        ["LENGTH_LIMIT"],
        "uncompressAsync over maxLength",
      );
      for (const hostile of hostileCases) {
        const options =
          hostile.maxLength === undefined ? undefined : { maxLength: hostile.maxLength };
        await expectAsyncRejection(
          () => uncompressAsync(hostile.bytes, options),
          hostile.codes,
          `uncompressAsync: ${hostile.name}`,
        );
      }
    }
  });

  add("output ownership", "results are fresh arrays that later calls do not overwrite", (c) => {
    const a = randomBytes(5000, 31);
    const b = randomBytes(5000, 32);
    const ca = c.compress(a);
    const caCopy = ca.slice();
    const ua = c.uncompress(ca);
    const cb = c.compress(b);
    c.uncompress(cb);
    sameBytes(ca, caCopy, "first compress result after a second call");
    sameBytes(ua, a, "first uncompress result after a second call");
  });

  legalFormChecks(add);
  ownershipChecks(add);
  capabilityChecks(add, inputs.payloads ?? []);
  lifetimeChecks(add);
  callerChecks(add);
  if (inputs.boundaries) boundaryChecks(add, inputs.boundaries);

  return checks;
}

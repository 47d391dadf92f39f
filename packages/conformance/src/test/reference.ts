// A codec known to be right, to break on purpose in the suite's self-tests, and the helpers
// that run the checks on it. Test-only (not in the build).
import {
  type AdapterModule,
  bytesOf,
  checkUncompressedLength,
  maxCompressedLength,
  outputSpace,
  type RawModule,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import { codecsOf, loadModule, moduleChecks, onEveryCodec } from "../adapter.js";
import { type ConformanceInputs, conformanceChecks } from "../checks.js";
import { literalStream } from "../corpus.js";
import { oracleUncompress } from "../oracle.js";

function oracleOrCorrupt(input: Uint8Array): Uint8Array {
  try {
    return oracleUncompress(input);
  } catch (error) {
    throw new SnappyError("backend-rejected", (error as Error).message);
  }
}

/**
 * A correct codec with every optional capability: stores literals only, decodes with the
 * oracle behind the core guard. (Its *Into members copy from a temporary array: fine for a
 * yardstick, not for an adapter.)
 */
export const reference: SnappyCodec = {
  contractVersion: 1,
  name: "reference",
  library: "literal-only@1.0.0",
  runtime: "js",
  compress(input) {
    return literalStream(bytesOf(input));
  },
  uncompress(input, options) {
    return oracleOrCorrupt(checkUncompressedLength(input, options).bytes);
  },
  uncompressedLength: (input, options) => checkUncompressedLength(input, options).length,
  maxCompressedLength,
  compressInto(given, into) {
    const input = bytesOf(given);
    const output = outputSpace(input, into, maxCompressedLength(input.length));
    const stream = literalStream(input);
    output.set(stream);
    return stream.length;
  },
  uncompressInto(given, into, options) {
    const { length, bytes } = checkUncompressedLength(given, options);
    const output = outputSpace(bytes, into, length);
    const decoded = oracleOrCorrupt(bytes);
    output.set(decoded);
    return decoded.length;
  },
};

export async function failures(
  codec: SnappyCodec,
  inputs?: ConformanceInputs,
  group?: string,
): Promise<string[]> {
  const failed: string[] = [];
  for (const check of conformanceChecks(inputs)) {
    if (group !== undefined && check.group !== group) continue;
    try {
      await check.run(codec);
    } catch {
      failed.push(`${check.group}: ${check.name}`);
    }
  }
  return failed;
}

/** The reference codec as an adapter module: a raw backend and one variant. */
export const referenceModule = {
  createCodec: async () => reference,
  createRaw: async () => ({
    library: reference.library,
    compress: literalStream,
    uncompress: oracleUncompress,
  }),
  createVariants: async (): Promise<SnappyCodec[]> => [{ ...reference, name: "reference-copy" }],
};
export const installed = (name: string) => `${name}@1.0.0`;

/**
 * What fails when `module` is checked as the adapter in folder `id`, its `createRaw` as
 * the `./raw` entry.
 */
export async function moduleFailures(
  { createRaw, ...module }: Partial<AdapterModule & RawModule>,
  id = "reference",
): Promise<string[]> {
  const loaded = await loadModule(module, { ...(createRaw && { createRaw }) });
  const failed: string[] = [];
  const checks = [
    ...moduleChecks({ id, installed }),
    ...conformanceChecks().map((check) => ({
      ...check,
      run: () => onEveryCodec(check, codecsOf(loaded)),
    })),
  ];
  for (const check of checks) {
    try {
      await check.run(loaded);
    } catch (error) {
      failed.push(`${check.group}: ${check.name}: ${(error as Error).message}`);
    }
  }
  return failed;
}

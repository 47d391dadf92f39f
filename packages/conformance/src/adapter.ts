// Checks on an adapter module as a whole, not only the codec `createCodec` returns: every
// variant from `createVariants`, the raw backend from the `./raw` entry's `createRaw`, and
// that the module's names agree with its folder and with what it really loaded. Plain functions like the codec
// checks, so the suite's own tests can prove each one fails on a broken module.
import type { AdapterModule, RawBackend, RawModule, SnappyCodec } from "@snappykit/core";
import type { Check } from "./check.js";
import { builtinCorpus } from "./corpus.js";
import { fail, sameBytes } from "./expect.js";
import { oracleUncompress } from "./oracle.js";

/** What an adapter module gives once its factories have run. */
export interface LoadedModule {
  readonly codec: SnappyCodec;
  /** From `createVariants`, empty when the module has none. */
  readonly variants: readonly SnappyCodec[];
  readonly raw: RawBackend;
}

/**
 * Run the factories of an adapter's main entry (`module`) and of its `./raw` entry (`rawModule`);
 * throws naming what is missing, or `createRaw` on the main entry, where users would find
 * an unguarded backend beside the codec.
 */
export async function loadModule(
  module: Partial<AdapterModule>,
  rawModule: Partial<RawModule>,
): Promise<LoadedModule> {
  const { createCodec, createVariants } = module;
  const { createRaw } = rawModule;
  if (typeof createCodec !== "function") fail("the main entry does not export createCodec");
  if (typeof createRaw !== "function") fail("the ./raw entry does not export createRaw");
  if ("createRaw" in module) fail("the main entry exports createRaw: it belongs on ./raw only");
  if (createVariants !== undefined && typeof createVariants !== "function") {
    fail("createVariants is exported but is not a function");
  }
  const [codec, raw, variants] = await Promise.all([
    createCodec(),
    createRaw(),
    createVariants?.() ?? [],
  ]);
  return { codec, raw, variants };
}

/** What the module is checked against: facts about its package, not the module's word. */
export interface ModuleExpectations {
  /** The package's folder under packages/, which must be the codec's `name`. */
  readonly id: string;
  /** `name@version` of package `name` as installed for the adapter (throws if it is not). */
  installed(name: string): string;
}

/** One named check over a loaded module; `run` throws when the module fails it. */
export interface ModuleCheck {
  readonly group: string;
  readonly name: string;
  run(module: LoadedModule): void | Promise<void>;
}

/** Every codec the module offers: `createCodec`'s, then each variant. */
export const codecsOf = (module: LoadedModule): SnappyCodec[] => [module.codec, ...module.variants];

/**
 * Run a codec check on each of `codecs` (the default and every variant); a failure names
 * the codec that failed it.
 */
export async function onEveryCodec(check: Check, codecs: readonly SnappyCodec[]): Promise<void> {
  for (const codec of codecs) {
    try {
      await check.run(codec);
    } catch (error) {
      fail(`${codec.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** `name@version` at the start of a `library` string (auto's goes on to name its backends). */
const LIBRARY = /^((?:@[^/@\s]+\/)?[^@\s]+)@\d+\.\d+\.\d+\S*/;

/** The module-level checks: names, the version loaded, variants and the raw backend. */
export function moduleChecks(expected: ModuleExpectations): ModuleCheck[] {
  const group = "adapter module";
  return [
    {
      group,
      name: "the codec's name is the package folder's id",
      run({ codec }) {
        if (codec.name !== expected.id) {
          fail(`codec.name is "${codec.name}", but the package folder is "${expected.id}"`);
        }
      },
    },
    {
      group,
      name: "names the version of the backend package it loaded",
      run({ codec }) {
        const match = LIBRARY.exec(codec.library);
        if (!match) fail(`library "${codec.library}" does not start with name@version`);
        const installed = expected.installed(match[1]!);
        if (match[0] !== installed) {
          fail(`library "${codec.library}", but ${installed} is what is installed`);
        }
      },
    },
    {
      group,
      name: "variants: each named <id>-<setting>, distinct, same library and runtime",
      run({ codec, variants }) {
        const seen = new Set<string>();
        for (const v of variants) {
          if (!v.name.startsWith(`${codec.name}-`) || v.name === `${codec.name}-`) {
            fail(`variant "${v.name}" is not named ${codec.name}-<setting>`);
          }
          if (seen.has(v.name)) fail(`two variants are named "${v.name}"`);
          seen.add(v.name);
          if (v.library !== codec.library || v.runtime !== codec.runtime) {
            fail(`variant ${v.name} is ${v.library} (${v.runtime}), not ${codec.library}`);
          }
        }
      },
    },
    {
      group,
      name: "createRaw: names the same library, writes Snappy and reads it back",
      run({ codec, raw }) {
        if (raw.library !== codec.library) {
          fail(`raw.library "${raw.library}", codec.library "${codec.library}"`);
        }
        // Small inputs (literals and copies): the codec checks cover the larger ones.
        for (const item of builtinCorpus().filter((i) => i.bytes.length <= 300)) {
          const compressed = raw.compress(item.bytes);
          // The oracle, so a raw backend writing a private format cannot pass.
          sameBytes(oracleUncompress(compressed), item.bytes, `oracle(raw.compress(${item.name}))`);
          sameBytes(
            raw.uncompress(codec.compress(item.bytes)),
            item.bytes,
            `raw.uncompress(${item.name})`,
          );
        }
      },
    },
  ];
}

// What the apps run for each adapter: its codec, each of its `createVariants()` codecs (other
// settings, under their own names) and, where asked, its raw library (`createRaw()`, no
// guards, from its `./raw` entry). The parent lists them from the loaded adapters
// (`adapterTargets`); a child process or a browser page, given the target's module and which
// one, builds it again (`openTarget`). No Node APIs here: a browser page bundles this module.
import type { AdapterModule, RawBackend, RawModule, SnappyCodec } from "@snappykit/core";
import type { LoadedAdapter } from "./index.js";

/** Which of an adapter module's backends to build: its codec, a variant, or its raw library. */
export type TargetRef =
  | { readonly impl: "adapter"; readonly variant?: string }
  | { readonly impl: "raw" };

interface FromAdapter {
  /** The name reports use: the adapter's folder name, or the variant's name. */
  readonly id: string;
  /** The adapter's folder name. */
  readonly adapter: string;
  readonly packageName: string;
  /**
   * Absolute path of the Node module a child process imports for this target: the
   * adapter's main entry, or its `./raw` entry for a raw target.
   */
  readonly entry: string;
}

/** An adapter's codec, or one of its variants (`variant` = its name, also its `id`). */
export interface CodecTarget extends FromAdapter {
  readonly impl: "adapter";
  readonly variant?: string;
  readonly codec: SnappyCodec;
  /** Absolute path of the adapter's `./raw` entry, where it has a raw library. */
  readonly rawEntry?: string;
}

/** An adapter's library called directly. */
export interface RawTarget extends FromAdapter {
  readonly impl: "raw";
  readonly raw: RawBackend;
}

export type AdapterTarget = CodecTarget | RawTarget;

/** Per adapter, in order: its codec, its variants, then (unless `raw: false`) its raw library. */
export function adapterTargets(
  loaded: readonly LoadedAdapter[],
  options: { readonly raw?: boolean } = {},
): AdapterTarget[] {
  return loaded.flatMap((a): AdapterTarget[] => {
    const from = { adapter: a.id, packageName: a.packageName, entry: a.entry };
    const { rawEntry } = a;
    return [
      { ...from, rawEntry, id: a.id, impl: "adapter", codec: a.codec },
      ...a.variants.map((v) => ({
        ...from,
        rawEntry,
        id: v.name,
        impl: "adapter" as const,
        variant: v.name,
        codec: v,
      })),
      ...(options.raw === false
        ? []
        : [{ ...from, entry: rawEntry, id: a.id, impl: "raw" as const, raw: a.raw }]),
    ];
  });
}

/**
 * Build the backend `ref` names from an adapter's module: its main entry, or its `./raw`
 * entry for a raw backend (`name`, the entry, for messages).
 * @throws Error when the module lacks the factory or the variant.
 */
export async function openTarget<R extends TargetRef>(
  mod: Partial<AdapterModule & RawModule>,
  ref: R,
  name: string,
): Promise<R extends { readonly impl: "raw" } ? RawBackend : SnappyCodec> {
  type Backend = R extends { readonly impl: "raw" } ? RawBackend : SnappyCodec;
  const target: TargetRef = ref;
  const factory = target.impl === "raw" ? "createRaw" : "createCodec";
  if (typeof mod[factory] !== "function") throw new Error(`${name} does not export ${factory}`);
  if (target.impl === "raw") return (await mod.createRaw!()) as Backend;
  if (target.variant === undefined) return (await mod.createCodec!()) as Backend;
  const codec = (await mod.createVariants?.())?.find((v) => v.name === target.variant);
  if (!codec) throw new Error(`${name} has no variant "${target.variant}"`);
  return codec as Backend;
}

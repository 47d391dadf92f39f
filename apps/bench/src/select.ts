// What a run times: from the loaded adapters and the command line, the codecs (each
// adapter's default codec and its variants), the reference, the payloads and the ops.
// Every name is checked here, before the gate and the timing start.
import {
  discoverAdapters,
  type FailedAdapter,
  type LoadedAdapter,
  loadAdapters,
} from "@snappykit/workspace";
import { adapterTargets } from "@snappykit/workspace/targets";
import { type CliOptions, selectNames, UsageError } from "./args.js";
import { adapterTarget, OPS, type OpSpec, type Target } from "./cases.js";
import type { BenchPayload, PayloadSource } from "./payloads.js";
import { chooseReference } from "./prepare.js";

/** The codec relative figures divide by unless `--reference` names another. */
export const DEFAULT_REFERENCE = "napi";
/** The reference of `--runtime browser` runs. */
export const BROWSER_REFERENCE = "ts";

/** A codec the run can time, with where a child process loads it from. */
export interface AvailableCodec {
  readonly id: string;
  readonly packageName: string;
  readonly codec: LoadedAdapter["codec"];
  readonly variantOf: string | undefined;
  readonly entry: string;
}

/**
 * Every codec the run can time: each adapter's default codec under the adapter's id,
 * plus its variants (non-default settings) under their own names.
 */
export function availableCodecs(loaded: readonly LoadedAdapter[]): AvailableCodec[] {
  return adapterTargets(loaded, { raw: false }).flatMap((t) =>
    t.impl === "adapter"
      ? [
          {
            id: t.id,
            packageName: t.packageName,
            codec: t.codec,
            variantOf: t.variant === undefined ? undefined : t.adapter,
            entry: t.entry,
          },
        ]
      : [],
  );
}

/** What the main bench run times. */
export interface Selection {
  readonly available: AvailableCodec[];
  /** The codecs `--codec` asked for (all by default). */
  readonly requested: string[];
  readonly reference: string;
  /** The requested codecs plus the reference, which relative figures need in the same forks. */
  readonly selected: AvailableCodec[];
  readonly payloads: BenchPayload[];
  readonly ops: OpSpec[];
}

/**
 * Resolve the command line against what loaded.
 * @throws UsageError for an unknown or unloadable name.
 */
export function selectRun(
  opts: CliOptions,
  loaded: readonly LoadedAdapter[],
  failed: readonly FailedAdapter[],
  entryIds: readonly string[],
  source: PayloadSource,
): Selection {
  const available = availableCodecs(loaded);
  const ids = [...new Set([...entryIds, ...available.map((a) => a.id)])];
  const requested = opts.codecs
    ? selectNames("codec", opts.codecs, ids)
    : available.map((a) => a.id);
  const notLoaded = requested.filter((id) => !available.some((a) => a.id === id));
  if (opts.codecs && notLoaded.length > 0) {
    throw new UsageError(
      notLoaded
        .map((id) => `codec "${id}" failed to load: ${failed.find((f) => f.id === id)?.reason}`)
        .join("; "),
    );
  }
  // A page cannot load the native default, so browser runs divide by the portable codec.
  const preferred = opts.runtime === "browser" ? BROWSER_REFERENCE : DEFAULT_REFERENCE;
  const reference =
    opts.reference ?? (available.some((a) => a.id === preferred) ? preferred : available[0]?.id);
  if (reference === undefined) throw new Error("no adapter loaded; see --list");
  selectNames(
    "reference codec",
    [reference],
    available.map((a) => a.id),
  );
  const codecIds = requested.includes(reference) ? requested : [...requested, reference];
  for (const s of opts.slowdowns) selectNames("--slow-down codec", [s.codec], codecIds);
  const payloadNames = source.all.map((p) => p.name);
  const wanted =
    opts.payloads === undefined
      ? [...source.defaults]
      : opts.payloads.includes("all")
        ? payloadNames
        : selectNames("payload", opts.payloads, [...payloadNames, "all"]);
  const ops = opts.ops
    ? selectNames(
        "op",
        opts.ops,
        OPS.map((o) => o.id),
      ).map((id) => OPS.find((o) => o.id === id)!)
    : [...OPS];
  return {
    available,
    requested,
    reference,
    selected: available.filter((a) => codecIds.includes(a.id)),
    payloads: wanted.map((n) => source.all.find((p) => p.name === n)!),
    ops,
  };
}

/** Load-time facts for `--list`: codecs, payloads (default set marked) and ops. */
export function listing(
  loaded: readonly { id: string; codec: { library: string; runtime: string } }[],
  failed: readonly { id: string; reason: string }[],
  source: PayloadSource,
  ops: readonly string[],
): string {
  const lines = ["codecs:"];
  for (const l of loaded)
    lines.push(`  ${l.id.padEnd(12)} ${l.codec.library} (${l.codec.runtime})`);
  for (const f of failed) lines.push(`  ${f.id.padEnd(12)} UNAVAILABLE: ${f.reason}`);
  lines.push("payloads (* = default set):");
  for (const p of source.all) {
    const mark = source.defaults.includes(p.name) ? "*" : " ";
    lines.push(
      `  ${mark} ${p.name.padEnd(28)} ${p.items.length} item(s), ${p.bytes} B: ${p.description}`,
    );
  }
  lines.push(`ops: ${ops.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/**
 * For the sweep and the soak: the codecs `--codec` names (all by default) among those that
 * loaded, and the gate reference.
 */
export async function chooseCodecs(
  opts: CliOptions,
  log: (line: string) => void,
): Promise<{ selected: AvailableCodec[]; targets: Target[]; gateReference: Target }> {
  const { loaded, failed } = await loadAdapters(discoverAdapters());
  const available = availableCodecs(loaded);
  const all = available.map((a) => a.id);
  const ids = opts.codecs ? selectNames("codec", opts.codecs, all) : all;
  for (const f of failed) log(`unavailable: ${f.id} (${f.packageName}): ${f.reason}`);
  const selected = available.filter((a) => ids.includes(a.id));
  if (selected.length === 0) throw new UsageError("nothing to run: no codec loaded (see --list)");
  return {
    selected,
    targets: selected.map((a) => adapterTarget(a.id, a.codec, a.variantOf !== undefined)),
    gateReference: chooseReference(available.map((a) => adapterTarget(a.id, a.codec))),
  };
}

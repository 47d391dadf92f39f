// What a run times: from the catalog and the command line, the codecs (each adapter's
// default codec and its variants), the reference, the payloads and the ops. Every name is
// checked here, before the gate and the timing start.
import type { CodecTarget } from "@snappykit/workspace/targets";
import type { BenchPayload, OpSpec } from "../model/case.js";
import { BROWSER_REFERENCE, type CliOptions, DEFAULT_REFERENCE } from "../model/options.js";
import { selectNames, UsageError } from "./args.js";
import { type Catalog, isNative } from "./catalog.js";
import { isElsewhere } from "./elsewhere.js";
import { FRAMED_OPS, OPS, REQRESP_SELECTION } from "./ops.js";

/** What a payload run times. */
export interface Selection {
  /** The codecs `--codec` asked for (all by default). */
  readonly requested: readonly string[];
  readonly reference: string;
  /** The requested codecs plus the reference, which relative figures need in the same forks. */
  readonly selected: readonly CodecTarget[];
  readonly payloads: readonly BenchPayload[];
  readonly ops: readonly OpSpec[];
}

/**
 * Resolve the command line against what loaded.
 * @throws UsageError for an unknown or unloadable name.
 */
export function selectRun(opts: CliOptions, catalog: Catalog): Selection {
  const available = catalog.codecs;
  const ids = [...new Set([...catalog.ids, ...available.map((a) => a.id)])];
  // An adapter timed only in other runtimes (`ffi`) names its codecs there (`ffi-bun`, ...).
  const elsewhere = (n: string) =>
    available.some((a) => a.id === n)
      ? [n]
      : available.filter((a) => isElsewhere(a) && a.adapter === n).map((a) => a.id);
  const named = opts.codecs?.flatMap((n) => {
    const found = elsewhere(n);
    return found.length > 0 ? found : [n];
  });
  const requested = named ? selectNames("codec", named, ids) : available.map((a) => a.id);
  const notLoaded = requested.filter((id) => !available.some((a) => a.id === id));
  if (opts.codecs && notLoaded.length > 0) {
    throw new UsageError(
      notLoaded
        .map(
          (id) =>
            `codec "${id}" failed to load: ${catalog.failed.find((f) => f.id === id)?.reason}`,
        )
        .join("; "),
    );
  }
  // A page cannot load the native default, so browser runs divide by the portable codec.
  const preferred = opts.runtime === "browser" ? BROWSER_REFERENCE : DEFAULT_REFERENCE;
  const reference =
    opts.reference ?? (available.some((a) => a.id === preferred) ? preferred : available[0]?.id);
  if (reference === undefined) throw new Error("no adapter loaded; see `bench list`");
  selectNames(
    "reference codec",
    [reference],
    available.map((a) => a.id),
  );
  const codecIds = requested.includes(reference) ? requested : [...requested, reference];
  for (const s of opts.slowdowns) selectNames("--slow-down codec", [s.codec], codecIds);
  const source = catalog.payloads;
  const payloadNames = source.all.map((p) => p.name);
  // `--data` replaces the default set; `--payload` adds fixtures to it.
  const wanted =
    opts.payloads === undefined
      ? source.user
        ? []
        : [...source.defaults]
      : opts.payloads.includes("all")
        ? payloadNames
        : selectNames("payload", opts.payloads, [...payloadNames, "all"]);
  return {
    requested,
    reference,
    selected: available.filter((a) => codecIds.includes(a.id)),
    payloads: [...wanted.map((n) => source.all.find((p) => p.name === n)!), ...(source.user ?? [])],
    ops: selectOps(expandSelections(opts.ops), OPS),
  };
}

/** `--op reqresp` names every framed implementation's encode and libp2p-sized read. */
function expandSelections(names: readonly string[] | undefined): string[] | undefined {
  return names?.flatMap((n) =>
    n === REQRESP_SELECTION
      ? FRAMED_OPS.map((o) => o.id).filter((id) => !id.startsWith("reqresp-read-1b:"))
      : [n],
  );
}

/**
 * The ops `--op` names among `valid` (all of them when it names none).
 * @throws UsageError for an op not in `valid`.
 */
export function selectOps(
  names: readonly string[] | undefined,
  valid: readonly OpSpec[],
  what = "op",
): OpSpec[] {
  if (!names) return [...valid];
  return selectNames(
    what,
    names,
    valid.map((o) => o.id),
  ).map((id) => valid.find((o) => o.id === id)!);
}

/**
 * For the sweep and the soak: the codecs `--codec` names (all by default) among those that
 * loaded.
 * @throws UsageError for an unknown name, or when none is left.
 */
export function chooseCodecs(
  opts: CliOptions,
  catalog: Catalog,
  native: "named" | "never" = "named",
): CodecTarget[] {
  // `cpp` is not an adapter: the sweep times it only when named (its crossovers and auto's
  // series are between adapters); the soak, whose workers import adapters, never does.
  // Nor codecs of other runtimes (inputs/elsewhere.ts): the sweep's and soak's forks are Node's.
  const codecs = catalog.codecs.filter(
    (a) => !isElsewhere(a) && (!isNative(a) || (native === "named" && opts.codecs?.includes(a.id))),
  );
  const all = codecs.map((a) => a.id);
  const ids = opts.codecs ? selectNames("codec", opts.codecs, all) : all;
  const selected = codecs.filter((a) => ids.includes(a.id));
  if (selected.length === 0)
    throw new UsageError("nothing to run: no codec loaded (see `bench list`)");
  return selected;
}

/** Load-time facts for `bench list`: codecs, payloads (default set marked) and ops. */
export function listing(catalog: Catalog): string {
  const lines = ["codecs:"];
  // Columns as wide as the longest name, so every description starts in one column.
  const idW = Math.max(0, ...[...catalog.codecs, ...catalog.failed].map((c) => c.id.length));
  for (const l of catalog.codecs)
    lines.push(`  ${l.id.padEnd(idW)}  ${l.codec.library} (${l.codec.runtime})`);
  for (const f of catalog.failed) lines.push(`  ${f.id.padEnd(idW)}  UNAVAILABLE: ${f.reason}`);
  lines.push("payloads (* = default set):");
  const source = catalog.payloads;
  const nameW = Math.max(0, ...source.all.map((p) => p.name.length));
  for (const p of source.all) {
    const mark = source.defaults.includes(p.name) ? "*" : " ";
    lines.push(
      `  ${mark} ${p.name.padEnd(nameW)}  ${p.items.length} item(s), ${p.bytes} B: ${p.description}`,
    );
  }
  lines.push(`ops: ${OPS.map((o) => o.id).join(", ")}`);
  return `${lines.join("\n")}\n`;
}

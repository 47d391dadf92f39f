// What a run can choose from, loaded once for every mode: each adapter in the workspace
// (`@snappykit/workspace`: no list to maintain) as the codecs and raw library it offers, the
// `cpp` program (libsnappy without bindings, inputs/native.ts), the codecs timed in other
// runtimes (inputs/elsewhere.ts), the ones that failed to load with the reason, and the
// payloads.
import { discoverAdapters, loadAdapters, type Unloaded } from "@snappykit/workspace";
import { adapterTargets, type CodecTarget, type RawTarget } from "@snappykit/workspace/targets";
import type { BenchPayload, Target } from "../model/case.js";
import { adapterTarget } from "./cases.js";
import { isElsewhere, loadElsewhere } from "./elsewhere.js";
import { loadNative, NATIVE_OPS, NATIVE_PACKAGE } from "./native.js";
import { loadPayloadSource, type PayloadSource } from "./payloads.js";
import { chooseReference } from "./prepare.js";
import { withLargeResponse } from "./streams.js";

/** Everything a run can name. */
export interface Catalog {
  /** Every adapter's id, loaded or not (unknown names are checked against these). */
  readonly ids: readonly string[];
  /** Each loaded adapter's default codec, then its variants, adapter by adapter; then `cpp`. */
  readonly codecs: readonly CodecTarget[];
  /** Each loaded adapter's library called directly. */
  readonly raw: readonly RawTarget[];
  readonly failed: readonly Unloaded[];
  readonly payloads: PayloadSource;
  /** End the processes that stand in for codecs of other runtimes (once the gate is done). */
  close(): Promise<void>;
}

/** Load every adapter and the payloads (the fixtures, and `--data`'s already read). */
export async function loadCatalog(user: readonly BenchPayload[] = []): Promise<Catalog> {
  const payloads = withLargeResponse(loadPayloadSource(user));
  const entries = discoverAdapters();
  const { loaded, failed } = await loadAdapters(entries);
  const targets = adapterTargets(loaded);
  const native = loadNative();
  const elsewhere = await loadElsewhere(failed);
  return {
    ids: [
      ...entries.map((e) => e.id),
      native.ok ? native.target.id : native.id,
      ...[...elsewhere.codecs, ...elsewhere.failed].map((c) => c.id),
    ],
    codecs: [
      ...targets.filter((t): t is CodecTarget => t.impl === "adapter"),
      ...(native.ok ? [native.target] : []),
      ...elsewhere.codecs,
    ],
    raw: targets.filter((t): t is RawTarget => t.impl === "raw"),
    // An adapter timed in other runtimes is not unavailable for failing in this Node.
    failed: [
      ...failed.filter((f) => !elsewhere.codecs.some((c) => c.adapter === f.id)),
      ...(native.ok ? [] : [native]),
      ...elsewhere.failed,
    ],
    payloads,
    close: () => Promise.all(elsewhere.codecs.map((c) => c.close())).then(() => {}),
  };
}

/** Whether a codec is a program without JavaScript (`cpp`), which a fork runs as it is. */
export const isNative = (c: CodecTarget): boolean => c.packageName === NATIVE_PACKAGE;

/** A loaded codec as a timing target (a variant times only the sync ops). */
export const codecTarget = (c: CodecTarget): Target => ({
  ...adapterTarget(c.id, c.codec, c.variant !== undefined),
  ...(isNative(c) && { native: NATIVE_OPS }),
  ...(isElsewhere(c) && { elsewhere: c.elsewhere }),
});

/**
 * The codec the gate checks every other one against and whose output every `uncompress`
 * decodes: libsnappy, else napi (prepare.ts), among every codec that loaded.
 */
export function gateReference(catalog: Catalog): Target {
  return chooseReference(catalog.codecs.map((c) => adapterTarget(c.id, c.codec)));
}

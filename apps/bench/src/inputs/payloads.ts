// Where payloads come from: the one place that talks to @snappykit/fixtures. Every mode takes
// its payloads from the run's PayloadSource (a source of the user's own files would be one
// more kind of source here).
import { loadPayloads } from "@snappykit/fixtures";
import type { BenchPayload, PayloadKind } from "../model/case.js";

/** Make a {@link BenchPayload} from items, computing `bytes`. */
export function makePayload(
  name: string,
  description: string,
  kind: PayloadKind,
  items: readonly Uint8Array[],
): BenchPayload {
  return { name, description, kind, items, bytes: items.reduce((n, item) => n + item.length, 0) };
}

/** The payloads a run can name and which of them a plain run uses. */
export interface PayloadSource {
  readonly all: readonly BenchPayload[];
  /** Names a run without --payload uses. */
  readonly defaults: readonly string[];
}

/**
 * The default set: one payload per question a client team asks, chosen so ~11 codec rows
 * fit in 5 minutes on 2 cores. `--payload all` runs every fixture.
 *
 * - `single-attestation`: the most frequent gossip message (~240 B): per-call overhead.
 * - `data-column-sidecar`: the post-fulu hot path (~19 KiB, mostly incompressible blobs).
 * - `beacon-block`: a block on gossip (~72 KiB, compresses ~1.6×).
 * - `blob-sidecar`: a full blob (~129 KiB, nearly incompressible).
 * - `blocks-by-range`: a req/resp response of 32 blocks (~2.3 MiB): bulk throughput.
 */
export const DEFAULT_PAYLOADS: readonly string[] = [
  "single-attestation",
  "data-column-sidecar",
  "beacon-block",
  "blob-sidecar",
  "blocks-by-range",
];

/**
 * Every fixture payload, and the default set (those of {@link DEFAULT_PAYLOADS} that
 * exist; every payload if none does, so a renamed fixture cannot silently empty a run).
 */
export function loadPayloadSource(): PayloadSource {
  const all = loadPayloads();
  const names = all.map((p) => p.name);
  const defaults = DEFAULT_PAYLOADS.filter((n) => names.includes(n));
  return { all, defaults: defaults.length > 0 ? defaults : names };
}

// Byte streams with the structure of real consensus traffic, for the sweep's sizes and the
// soak's big blob and gossip mix: fixture items (serialized SSZ) laid end to end, repeated
// when more bytes are needed. Snappy compresses in independent 64 KiB fragments, so
// repeating a stream of multi-KiB parts does not make it more compressible than its parts are.
import { formatBytes } from "@snappykit/workspace/format";
import type { BenchPayload } from "../model/case.js";
import { GOSSIP_MIX } from "../model/soak.js";
import {
  DATA_SERIES,
  SWEEP_SERIES,
  SWEEP_SIZES,
  type SweepSeriesName,
  sweepPayloadName,
} from "../model/sweep.js";
import { makePayload, type PayloadSource } from "./payloads.js";

/** The first `n` bytes of `parts` laid end to end, starting over when they run out. */
export function repeatTo(parts: readonly Uint8Array[], n: number): Uint8Array {
  const total = parts.reduce((s, p) => s + p.length, 0);
  if (total === 0) throw new Error("repeatTo: no bytes to repeat");
  const out = new Uint8Array(n);
  let at = 0;
  while (at < n) {
    for (const p of parts) {
      if (at >= n) break;
      const take = Math.min(p.length, n - at);
      out.set(p.subarray(0, take), at);
      at += take;
    }
  }
  return out;
}

/** Fixture payloads whose items make up each stream. */
export const STREAM_SOURCES = {
  /** 32 serialized fulu SignedBeaconBlocks (~3.1 MiB, compress ~1.8×). */
  blocks: ["blocks-by-range"],
  /** A blob sidecar, a data column sidecar and a column sidecar response (~1.0×). */
  sidecars: ["blob-sidecar", "data-column-sidecar", "columns-32k-chunks"],
} as const;

/** The items of the named fixture payloads, in order. */
export function streamParts(
  source: PayloadSource,
  names: readonly string[],
): readonly Uint8Array[] {
  return names.flatMap((name) => {
    const p = source.all.find((x) => x.name === name);
    if (!p) throw new Error(`fixture payload "${name}" is missing`);
    return p.items;
  });
}

/** The large req/resp response: one chunk of the spec's most, 10 MiB of blocks. */
export const LARGE_RESPONSE = "response-10mib";

/** `source` with {@link LARGE_RESPONSE} among its payloads (named, not in the default set). */
export function withLargeResponse(source: PayloadSource): PayloadSource {
  const large = makePayload(
    LARGE_RESPONSE,
    `one 10 MiB req/resp chunk (MAX_PAYLOAD_SIZE): the blocks of ${STREAM_SOURCES.blocks.join(", ")} laid end to end, repeated`,
    "response",
    [repeatTo(streamParts(source, STREAM_SOURCES.blocks), 10 * 2 ** 20)],
  );
  return { ...source, all: [...source.all, large] };
}

/** A stream the sweep cuts its sizes from: its name, where it comes from, its parts. */
export interface SweepStream {
  readonly name: SweepSeriesName;
  /** Payloads (fixtures, or the user's file) it is made of. */
  readonly sources: readonly string[];
  readonly parts: readonly Uint8Array[];
}

/**
 * The sweep's streams: the block and sidecar fixtures, or with `sweep --data` the user's
 * bytes alone (a folder's files laid end to end).
 */
export function sweepStreams(source: PayloadSource): SweepStream[] {
  const user = source.user?.[0];
  if (user) return [{ name: DATA_SERIES, sources: [user.name], parts: user.items }];
  return SWEEP_SERIES.map((name) => ({
    name,
    sources: STREAM_SOURCES[name],
    parts: streamParts(source, STREAM_SOURCES[name]),
  }));
}

/** How the sweep's messages are made, for the report. */
export function sweepData(streams: readonly SweepStream[]): string {
  const [only] = streams;
  if (streams.length === 1 && only!.name === DATA_SERIES) {
    return `each size is the first \`size\` bytes of ${only!.sources[0]} (--data; a folder's files laid end to end), repeated where a size needs more`;
  }
  return (
    "each size is two messages, timed as separate cases and added up fork by fork, reported " +
    "per message: the first `size` bytes " +
    `of the serialized blocks of ${STREAM_SOURCES.blocks.join(", ")} laid end to end (compress ~1.8×), ` +
    `and of ${STREAM_SOURCES.sidecars.join(", ")} laid end to end (~1.0×), both repeated where ` +
    "4 MiB needs more (from @snappykit/fixtures)"
  );
}

/** The sweep's payloads: per size, one message per stream. */
export function sweepPayloads(
  streams: readonly SweepStream[],
  sizes: readonly number[] = SWEEP_SIZES,
): BenchPayload[] {
  return sizes.flatMap((size) =>
    streams.map((stream) =>
      makePayload(
        sweepPayloadName(size, stream.name),
        `${formatBytes(size)} prefix of ${stream.sources.join(", ")}`,
        "synthetic",
        [repeatTo(stream.parts, size)],
      ),
    ),
  );
}

/** The mix as a message order: each kind spread evenly over the cycle (deterministic). */
export function gossipOrder(mix: readonly (readonly [string, number])[] = GOSSIP_MIX): string[] {
  const total = mix.reduce((n, [, k]) => n + k, 0);
  return mix
    .flatMap(([name, k]) =>
      Array.from({ length: k }, (_, i) => ({ name, at: ((i + 0.5) * total) / k })),
    )
    .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name))
    .map((m) => m.name);
}

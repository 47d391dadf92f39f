// The size sweep (`pnpm bench sweep`): how cost grows with message size, and where the
// pure-JS/wasm codecs and the native ones cross. Every codec compresses and uncompresses
// messages of 64 B to 4 MiB (×4 steps, or `--sizes`) cut from real consensus bytes, timed
// like the payload run (gate, forks, fork medians with intervals); the crossover is
// interpolated between sizes from paired per-fork ratios (`findCrossover`, packages/auto/src/crossover.ts). The block
// stream (compressible) and the sidecar stream (incompressible) are timed as separate cases,
// so each has its own crossover (@snappykit/auto routes by both); the headline points add the
// two up fork by fork.

import { createCodec as createAuto } from "@snappykit/auto";
import { buildCases } from "../inputs/cases.js";
import { codecTarget } from "../inputs/catalog.js";
import { getOp } from "../inputs/ops.js";
import { chooseCodecs, selectOps } from "../inputs/select.js";
import { type SweepStream, sweepData, sweepPayloads, sweepStreams } from "../inputs/streams.js";
import { type TimedCases, timeAndSummarise, timingFor } from "../measure/time.js";
import type { BenchCase, OpSpec } from "../model/case.js";
import {
  parseSweepPayload,
  SWEEP_OPS,
  SWEEP_SCHEMA,
  SWEEP_SIZES,
  type SweepReport,
} from "../model/sweep.js";
import type { TimingOptions } from "../model/timing.js";
import { sweepFigures } from "../summarise/sweep.js";
import type { Mode, Selected } from "./mode.js";

interface SweepSelection extends Selected {
  readonly streams: readonly SweepStream[];
  readonly ops: readonly OpSpec[];
  readonly sizes: readonly number[];
  readonly cases: readonly BenchCase[];
}

const shape = (sizes: readonly number[], streams: readonly SweepStream[]) =>
  `${sizes.length} sizes × ${streams.length} stream${streams.length === 1 ? "" : "s"}`;
const bytes = (xs: readonly Uint8Array[]) => xs.reduce((n, x) => n + x.length, 0);

interface SweepMeasured extends TimedCases {
  readonly timing: TimingOptions;
  readonly auto: SweepReport["auto"];
}

export const sweepMode: Mode<"sweep", SweepSelection, SweepMeasured> = {
  kind: "sweep",

  select({ opts }, catalog) {
    const ops = selectOps(opts.ops, SWEEP_OPS.map(getOp), "op for bench sweep");
    const codecs = chooseCodecs(opts, catalog);
    const sizes = opts.sizes ?? SWEEP_SIZES;
    const streams = sweepStreams(catalog.payloads);
    const payloads = sweepPayloads(streams, sizes);
    const targets = codecs.map(codecTarget);
    return {
      codecs,
      targets,
      payloads,
      describe: `${targets.length} codecs × ${shape(sizes, streams)}`,
      streams,
      ops,
      sizes,
      cases: buildCases({
        targets,
        rawTargets: [],
        payloads,
        ops,
        overheadPayloads: [],
        explicitOps: true,
      }),
    };
  },

  // As with the payload run, only a full unfiltered sweep lands in the default folder.
  complete: (opts) =>
    !opts.quick && opts.forks !== 0 && !opts.codecs && !opts.ops && !opts.sizes && !opts.data,

  async measure(run, { selection, gate, runtime }) {
    const { cases, codecs, ops, sizes, streams } = selection;
    // A fixed fork count per point: the sweep's budget has no room for adaptive extras.
    const timing = timingFor(run.opts, false);
    run.log(
      `sweep: ${cases.length} cases (${codecs.length} codecs × ${ops.length} ops × ${shape(sizes, streams)}) × ${Math.max(1, timing.forks)} forks`,
    );
    // The thresholds auto routes by here, as it says itself, for the chart to draw.
    const { thresholds, source, provenance } = (await createAuto()).describe();
    return {
      ...(await timeAndSummarise(
        cases,
        gate,
        codecs,
        { slowdowns: [], pin: run.opts.pin },
        timing,
        run,
        { runtime },
      )),
      timing,
      auto: { thresholds, source, provenance },
    };
  },

  summarise({ opts, started, command }, { selection, gate, environment }, m) {
    const { codecs, ops, sizes, streams } = selection;
    const stream = (name: string) =>
      gate.prepared.filter((p) => parseSweepPayload(p.payload.name).series === name);
    return {
      schema: SWEEP_SCHEMA,
      command,
      mode: opts.quick ? "quick" : "full",
      timing: m.timing,
      durationMs: performance.now() - started,
      environment: { ...environment, cpuIdle: m.cpuIdle, affinity: m.affinity },
      gateReference: gate.reference,
      data: sweepData(streams),
      sizes,
      codecs: codecs.map((a) => ({ id: a.id, library: a.codec.library, runtime: a.codec.runtime })),
      ...sweepFigures(
        m.cases,
        ops.map((o) => o.id),
        new Map(codecs.map((a) => [a.id, a.codec.runtime])),
        streams.map(({ name, sources }) => ({
          name,
          sources,
          ratio:
            bytes(stream(name).flatMap((p) => p.payload.items)) /
            bytes(stream(name).flatMap((p) => p.referenceCompressed)),
        })),
      ),
      failures: m.failures,
      auto: m.auto,
    };
  },
};

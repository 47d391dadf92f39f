// The soak (`pnpm bench soak`): does RSS stay flat under sustained load? Each codec runs a
// gossip mix and a 50 MiB blob, each in a fresh process (measure/soak-runner.ts), after the
// same gate as the payload run on every message and on the blob; the report has each run's
// RSS and GC figures and whether its RSS keeps growing (summarise/trend.ts).
import { codecTarget } from "../inputs/catalog.js";
import { makePayload } from "../inputs/payloads.js";
import { chooseCodecs } from "../inputs/select.js";
import { gossipOrder, repeatTo, STREAM_SOURCES, streamParts } from "../inputs/streams.js";
import { runSoaks } from "../measure/soak-runner.js";
import {
  BLOB_BYTES,
  FULL_SOAK,
  GOSSIP_MIX,
  QUICK_SOAK,
  RULE_TEXT,
  SAMPLE_MS,
  SOAK_SCHEMA,
  WARMUP_FRACTION,
} from "../model/soak.js";
import { soakRow } from "../summarise/trend.js";
import type { Mode, Selected } from "./mode.js";

interface SoakSelection extends Selected {
  /** Length of the gossip scenario and rounds of the big blob. */
  readonly seconds: number;
  readonly rounds: number;
}

export const soakMode: Mode<"soak", SoakSelection, Awaited<ReturnType<typeof runSoaks>>> = {
  kind: "soak",

  select({ opts }, catalog) {
    const settings = opts.quick ? QUICK_SOAK : FULL_SOAK;
    const codecs = chooseCodecs(opts, catalog, "never");
    // Gated like the payload run's inputs: every codec round-trips every message and the
    // blob with the reference, and uncompress decodes the reference's bytes.
    const source = catalog.payloads;
    const messages = gossipOrder().map((name) => streamParts(source, [name])[0]!);
    const blob = repeatTo(streamParts(source, STREAM_SOURCES.blocks), BLOB_BYTES);
    const targets = codecs.map(codecTarget);
    return {
      codecs,
      targets,
      payloads: [
        makePayload("gossip-mix", "one cycle of the gossip mix", "gossip", messages),
        makePayload("big-blob", "50 MiB of serialized blocks", "synthetic", [blob]),
      ],
      describe: `${targets.length} codecs × gossip mix and 50 MiB blob`,
      seconds: opts.soakSeconds ?? settings.seconds,
      rounds: opts.soakRounds ?? settings.rounds,
    };
  },

  complete: (opts) => !opts.quick && !opts.codecs && !opts.soakSeconds && !opts.soakRounds,

  measure({ io, log }, { selection, gate, runtime }) {
    const [gossip, blob] = gate.prepared;
    return runSoaks(
      selection.codecs,
      { gossip: gossip!, "big-blob": blob! },
      selection,
      io,
      log,
      runtime.command,
    );
  },

  summarise({ opts, started, command }, { selection, gate, environment }, m) {
    return {
      schema: SOAK_SCHEMA,
      command,
      mode: opts.quick ? "quick" : "full",
      durationMs: performance.now() - started,
      environment,
      gateReference: gate.reference,
      settings: {
        gossipSeconds: selection.seconds,
        blobRounds: selection.rounds,
        blobBytes: BLOB_BYTES,
        blobData: `the serialized blocks of ${STREAM_SOURCES.blocks.join(", ")} laid end to end, repeated to 50 MiB`,
        gossipMix: GOSSIP_MIX,
        sampleMs: SAMPLE_MS,
        warmupFraction: WARMUP_FRACTION,
        rule: RULE_TEXT,
      },
      rows: m.runs.map((r) => soakRow(r.codec.id, r.codec.codec.runtime, r.scenario, r.series)),
      failures: m.failures,
    };
  },

  exitCode: (_run, report) => (report.failures.length > 0 ? 3 : 0),
};

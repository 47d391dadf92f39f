// `pnpm bench --calibrate`: @snappykit/auto's thresholds measured where it runs, in under a
// minute on 2 cores. A short size sweep of the pair auto chooses between (ts and napi) on
// both streams, on the sizes around the crossovers the full sweep found (1 KiB to 1 MiB,
// ×2 steps), 5 quick forks; then auto's own derivation (`thresholdsFromSweep`, the one its
// shipped thresholds come from) writes thresholds.json, which `createCodec({ thresholds })`
// takes as it is and `describe()` reports as "calibrated", with this machine, Node and date.
import { thresholdsFromSweep } from "@snappykit/auto";
import type { CliOptions } from "../model/options.js";
import type { Mode, RunContext } from "./mode.js";
import { sweepMode } from "./sweep.js";

/** The codecs auto routes between. */
export const CALIBRATION_CODECS = ["ts", "napi"];
/** 1 KiB to 1 MiB in ×2 steps: around every crossover the full sweep has found here. */
export const CALIBRATION_SIZES: readonly number[] = Array.from(
  { length: 11 },
  (_, i) => 1024 * 2 ** i,
);
/** Forks per case: the fewest that give intervals (and that the ratio tests need). */
export const CALIBRATION_FORKS = 5;

/** The sweep a calibration runs: its codecs, sizes and forks, quick timing, both ops. */
const sweepOf = (run: RunContext): RunContext => {
  const { ops: _ops, sizes: _sizes, ...rest } = run.opts;
  const opts: CliOptions = {
    ...rest,
    quick: true,
    codecs: CALIBRATION_CODECS,
    sizes: CALIBRATION_SIZES,
    forks: run.opts.forks ?? CALIBRATION_FORKS,
  };
  return { ...run, opts };
};

type Sweep = typeof sweepMode;

export const calibrateMode: Mode<
  "thresholds",
  Parameters<Sweep["measure"]>[1]["selection"],
  Awaited<ReturnType<Sweep["measure"]>>
> = {
  kind: "thresholds",
  runtime: sweepMode.runtime,
  select: (run, catalog) => sweepMode.select(sweepOf(run), catalog),
  // Always its own folder's file: never mistaken for the shipped thresholds.
  complete: () => false,
  measure: (run, prepared) => sweepMode.measure(sweepOf(run), prepared),
  summarise(run, prepared, measured) {
    const sweep = sweepMode.summarise(sweepOf(run), prepared, measured);
    return thresholdsFromSweep(sweep, run.command, "calibrated");
  },
};

// Every mode of the pipeline, by the name `--sweep`/`--soak`/`--merge` (or none) gives it. A
// mode that reads reports instead of timing (`--merge`) is a ReadingMode: it builds its
// report from the files, with no catalog, runtime or gate.
import type { ModeName } from "../model/options.js";
import type { ReportKind } from "../model/outcome.js";
import { benchMode } from "./bench.js";
import { calibrateMode } from "./calibrate.js";
import { mergeMode } from "./merge.js";
import type { Mode, ReadingMode, Selected } from "./mode.js";
import { soakMode } from "./soak.js";
import { sweepMode } from "./sweep.js";

export const MODES: {
  readonly [K in ModeName]: Mode<ReportKind, Selected, unknown> | ReadingMode<ReportKind>;
} = {
  bench: benchMode,
  sweep: sweepMode,
  soak: soakMode,
  merge: mergeMode,
  calibrate: calibrateMode,
};

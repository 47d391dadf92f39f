// Every mode of the pipeline, by the name its command gives it (inputs/args.ts). A mode that
// reads reports instead of timing (`merge`, `render`) is a ReadingMode: it builds its
// report from the files, with no catalog, runtime or gate.
import type { ModeName } from "../model/options.js";
import type { ReportKind } from "../model/outcome.js";
import { benchMode } from "./bench.js";
import { mergeMode } from "./merge.js";
import type { Mode, ReadingMode, Selected } from "./mode.js";
import { renderMode } from "./render.js";
import { soakMode } from "./soak.js";
import { sweepMode } from "./sweep.js";

export const MODES: {
  readonly [K in ModeName]: Mode<ReportKind, Selected, unknown> | ReadingMode;
} = {
  bench: benchMode,
  sweep: sweepMode,
  soak: soakMode,
  merge: mergeMode,
  render: renderMode,
};

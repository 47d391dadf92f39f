// Every mode of the pipeline, by the name `--sweep`/`--soak` (or none) gives it. A mode that
// reads reports instead of timing (merging runs from several machines, say) is one more
// entry: its select reads and checks the files, its gate has nothing to prepare.
import type { ModeName } from "../model/options.js";
import type { ReportKind } from "../model/outcome.js";
import { benchMode } from "./bench.js";
import type { Mode, Selected } from "./mode.js";
import { soakMode } from "./soak.js";
import { sweepMode } from "./sweep.js";

export const MODES: { readonly [K in ModeName]: Mode<ReportKind, Selected, unknown> } = {
  bench: benchMode,
  sweep: sweepMode,
  soak: soakMode,
};

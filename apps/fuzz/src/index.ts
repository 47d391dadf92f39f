/**
 * snappykit's fuzzer: every adapter and every raw backend on crafted, random and mutated
 * input, each call isolated in a child process, summarised as a safety matrix.
 * @packageDocumentation
 */
export { type FuzzOptions, runFuzz } from "./fuzz.js";
export { type InputSet, SET_NAMES, type SetName } from "./inputs.js";
export {
  type CallResult,
  type CellStats,
  classifyReturn,
  classifyThrow,
  type Example,
  HANG_MS,
  missedTargets,
  OUTCOMES,
  type Outcome,
  RSS_LIMIT_BYTES,
  SLOW_MS,
} from "./outcome.js";
export { REFERENCE_DESCRIPTION, referenceOutcome } from "./reference.js";
export {
  type FailedRow,
  renderSafetyMarkdown,
  type SafetyReport,
  type SafetyRow,
} from "./report.js";

/**
 * snappykit's fuzzer: every adapter and every raw backend on crafted, random and mutated
 * input, each call isolated in a child process, summarised as a safety matrix.
 * @packageDocumentation
 */
export { type FuzzOptions, runFuzz } from "./fuzz.js";
export type { CellStats, Example, Outcome } from "./outcome.js";
export {
  type FailedRow,
  renderSafetyMarkdown,
  type SafetyReport,
  type SafetyRow,
} from "./report.js";

// Everything on the vitest-free entry, plus the vitest suite itself.
export { readSizeConstants } from "./constants.js";
export * from "./portable.js";
export {
  type CodecConformanceOptions,
  type ConformanceOptions,
  fixturePayloads,
  type ModuleConformanceOptions,
  runConformance,
} from "./suite.js";

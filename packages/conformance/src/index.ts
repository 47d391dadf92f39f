// Everything on the vitest-free entry, plus the vitest suite itself.
export * from "./portable.js";
export {
  type CodecConformanceOptions,
  type ConformanceOptions,
  fixturePayloads,
  type ModuleConformanceOptions,
  runConformance,
} from "./suite.js";

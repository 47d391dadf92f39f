// Everything on the vitest-free entry, plus the vitest suite itself.
export * from "./cases-entry.js";
export { type ConformanceOptions, fixturePayloads, runConformance } from "./suite.js";

export { type HostileCase, hostileCases, type ValidStream, validStreams } from "./cases.js";
export {
  type Check,
  type ConformanceInputs,
  conformanceChecks,
  type PayloadSet,
} from "./checks.js";
export { snappyErrorOf, thrown } from "./errors.js";
export { oracleUncompress } from "./oracle.js";
export { builtinCorpus, type CorpusItem, literalStream, prng, randomBytes } from "./streams.js";
export { type ConformanceOptions, fixturePayloads, runConformance } from "./suite.js";

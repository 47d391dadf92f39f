export { type HostileCase, hostileCases, type ValidStream, validStreams } from "./cases.js";
export { type Check, type ConformanceInputs, conformanceChecks } from "./checks.js";
export { oracleUncompress } from "./oracle.js";
export { builtinCorpus, type CorpusItem, literalStream, randomBytes } from "./streams.js";
export { type ConformanceOptions, runConformance } from "./suite.js";

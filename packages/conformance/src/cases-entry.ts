// Vitest-free entry (`@snappykit/conformance/cases`) for tools that replay the crafted
// inputs outside a test run, such as the fuzzer.
export { type HostileCase, hostileCases, type ValidStream, validStreams } from "./cases.js";
export { snappyErrorOf, thrown } from "./errors.js";
export { oracleUncompress } from "./oracle.js";
export { builtinCorpus, type CorpusItem, literalStream, prng, randomBytes } from "./streams.js";

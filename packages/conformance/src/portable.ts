// Vitest-free entry (`@snappykit/conformance/cases`) for tools that replay the crafted
// inputs or run the checks outside a test run, such as the fuzzer and apps/runtimes (Bun,
// Deno, the browser).
export {
  codecsOf,
  type LoadedModule,
  loadModule,
  type ModuleCheck,
  type ModuleExpectations,
  moduleChecks,
  onEveryCodec,
} from "./adapter.js";
export { asSubclass, SUBCLASSES } from "./callers.js";
export { type HostileCase, hostileCases, type ValidStream, validStreams } from "./cases.js";
export type { AddCheck, Check, PayloadSet } from "./check.js";
export { type ConformanceInputs, conformanceChecks } from "./checks.js";
export {
  builtinCorpus,
  type CorpusItem,
  copy1,
  copy2,
  copy4,
  literal,
  literalHeader,
  literalStream,
  mixed,
  mutate,
  prng,
  randomBytes,
  structuredBytes,
  TRUNCATE_SHARE,
} from "./corpus.js";
export { backendRejection, snappyErrorOf, thrown } from "./errors.js";
export { expectOwned, firstDifference, sameBytes } from "./expect.js";
export {
  type CopyForm,
  copyFits,
  type LegalCase,
  type LiteralForm,
  legalForms,
  literalHeaderIn,
} from "./legal-forms.js";
export { inputKinds } from "./lifetime.js";
export { oracleUncompress } from "./oracle.js";
export {
  type BoundaryLimits,
  type BoundaryPlan,
  type BoundarySize,
  boundarySizes,
  type SizeConstant,
} from "./sizes.js";

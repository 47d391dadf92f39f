// Adapter discovery lives in @snappykit/workspace, shared with the fuzzer, apps/runtimes
// and the scripts; re-exported for the bench's modules.
export {
  type AdapterEntry,
  discoverAdapters,
  type FailedAdapter,
  type LoadedAdapter,
  loadAdapters,
  repoRoot,
} from "@snappykit/workspace";

// Codecs the bench's own Node cannot load but other runtimes can: an adapter whose
// package.json declares `cannotLoad.node` (ffi: node:ffi arrived in Node 26, and the bench
// may run on Node 20) is timed in forks of each process runtime it does not declare
// unloadable, one codec per runtime, `<id>-<runtime>` (`ffi-node26`, `ffi-bun`,
// `ffi-deno`). One fork-protocol process of that runtime (measure/fork.ts) stands in for it
// here: it says which library and ops the codec has there, and answers the gate's calls;
// the run closes it once the gate is done. They time cpp's ops only (below).
import { guardedCodec } from "@snappykit/core";
import { declaredUnloadable, type FailedAdapter, type Unloaded } from "@snappykit/workspace";
import { NODE_LINES } from "@snappykit/workspace/node-lines";
import type { CodecTarget } from "@snappykit/workspace/targets";
import { ChildWorker } from "../measure/fork.js";
import { MissingRuntimeError, processRuntime } from "../measure/runtime.js";
import type { Elsewhere } from "../model/case.js";
import type { RuntimeName } from "../model/options.js";
import { FULL_TIMING } from "../model/timing.js";
import { NATIVE_OPS } from "./native.js";

/** The process runtimes a codec the bench's Node cannot load is tried in. */
const RUNTIMES: readonly Exclude<RuntimeName, "node" | "browser">[] = [
  ...NODE_LINES,
  "bun",
  "deno",
];

/** A codec of another runtime, as the catalog lists it; `close` ends its stand-in process. */
export interface ElsewhereCodec extends CodecTarget {
  readonly elsewhere: Elsewhere;
  close(): Promise<void>;
}

/** A loaded codec that is timed in another runtime's forks. */
export const isElsewhere = (c: CodecTarget): c is ElsewhereCodec => "elsewhere" in c;

/**
 * For each adapter in `failed` that declares it cannot load in this Node: a codec per
 * runtime it does not declare, started there; those that fail to start, with the reason.
 */
export async function loadElsewhere(
  failed: readonly FailedAdapter[],
): Promise<{ codecs: ElsewhereCodec[]; failed: Unloaded[] }> {
  const tries = failed
    .filter((f) => declaredUnloadable(f) !== undefined)
    .flatMap((f) =>
      RUNTIMES.filter((r) => f.metadata.cannotLoad?.[r] === undefined).map((runtime) =>
        start(f, runtime),
      ),
    );
  const results = await Promise.all(tries);
  return {
    codecs: results.filter((r): r is ElsewhereCodec => "elsewhere" in r),
    failed: results.filter((r): r is Unloaded => "reason" in r),
  };
}

async function start(
  f: FailedAdapter,
  runtime: Exclude<RuntimeName, "node" | "browser">,
): Promise<ElsewhereCodec | Unloaded> {
  const id = `${f.id}-${runtime}`;
  const unloaded = (reason: string): Unloaded => ({ id, packageName: f.packageName, reason });
  let worker: ChildWorker;
  let version: string;
  try {
    const { command, version: v } = processRuntime(runtime);
    version = v;
    const spec = { codec: id, impl: "adapter" as const, entry: f.entry, runtime };
    worker = await ChildWorker.start(spec, undefined, FULL_TIMING, 60_000, command);
  } catch (error) {
    if (error instanceof MissingRuntimeError) return unloaded(error.message);
    return unloaded((error as Error).message.replace(/^cannot load [^:]*: /, ""));
  }
  // A run that stops before its gate (a usage error) must not wait for this process.
  worker.unref();
  const { library, ops } = await worker.describe();
  const here = () => {
    throw new Error(`${id} runs in ${runtime}'s processes only`);
  };
  return {
    id,
    adapter: f.id,
    packageName: f.packageName,
    entry: f.entry,
    impl: "adapter",
    // The codec as the catalog lists it (its library and ops as that runtime loaded it); its
    // calls are the stand-in's, through `elsewhere.gate`.
    codec: guardedCodec({
      name: id,
      // The report's headline names the run's runtime; this codec's is its own.
      library: `${library}, in ${runtime} ${version}`,
      runtime: "native",
      guard: "length",
      compress: here,
      uncompress: here,
    }),
    elsewhere: {
      runtime,
      // The ops cpp times, where binding, FFI, pure code and the floor meet (Teku's table);
      // the client-pattern and framed rows in three more runtimes would cost the run a
      // fifth more time for rows that say nothing of the runtime's FFI.
      ops: ops.filter((op) => NATIVE_OPS.includes(op)),
      gate: {
        compress: (input) => worker.run("compress", input),
        uncompress: (input) => worker.run("uncompress", input),
      },
    },
    close: () => worker.close(),
  };
}

// Messages between the fuzzer (parent) and a worker child. Sent over Node's IPC channel with
// `serialization: "advanced"`, so Uint8Arrays cross without hex or base64.
import type { Expected, Outcome } from "./outcome.js";

/**
 * Which object a worker calls: the adapter's guarded codec, its raw backend, or a framed
 * (req/resp) implementation over it (framed.ts).
 */
export type Target = "adapter" | "raw" | "framed";

/** Parent → child: what to load (sent once, right after the fork). */
export interface LoadMessage {
  type: "load";
  /** Absolute path of the adapter module. */
  entry: string;
  target: Target;
  /** Load this `createVariants()` codec instead of `createCodec()` (codec targets only). */
  variant?: string;
  /** The framed implementation's id (@snappykit/bench/framed), for a `framed` target. */
  framed?: string;
}

/** Parent → child: run inputs `from`…end in order, replying with one `result` each. */
export interface RunMessage {
  type: "run";
  inputs: Uint8Array[];
  expected: Expected[];
  /** `maxLength` per input (codec targets only; raw backends have no such option). */
  maxLength: (number | undefined)[];
  from: number;
}

export type ParentMessage = LoadMessage | RunMessage;

/** Child → parent: loaded and warmed up. */
export interface ReadyMessage {
  type: "ready";
  library: string;
  rss: number;
}

/** Child → parent: the backend could not be loaded. */
export interface LoadFailedMessage {
  type: "loadFailed";
  reason: string;
}

/** Child → parent: one call's result. */
export interface ResultMessage {
  type: "result";
  index: number;
  outcome: Outcome;
  ms: number;
  rssGrowth: number;
  /** RSS after the call, to decide whether the child must be restarted. */
  rssAfter: number;
  detail?: string;
}

export type ChildMessage = ReadyMessage | LoadFailedMessage | ResultMessage;

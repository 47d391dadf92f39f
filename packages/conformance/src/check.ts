// What every file of checks shares: a check, how a file registers its checks, and the real
// payloads some checks run on. Imports nothing of the suite, so no file of checks imports
// another.
import type { SnappyCodec } from "@snappykit/core";

/** One named check; `run` throws (or rejects) when the codec fails it. */
export interface Check {
  readonly group: string;
  readonly name: string;
  run(codec: SnappyCodec): void | Promise<void>;
}

/** Registers a check: how each file of checks adds its own to the suite's list. */
export type AddCheck = (
  group: string,
  name: string,
  run: (codec: SnappyCodec) => void | Promise<void>,
) => void;

/** A set of real payloads: every item round-trips, and every golden stream decodes to it. */
export interface PayloadSet {
  readonly name: string;
  readonly items: readonly Uint8Array[];
  /** The items as a reference encoder (Google's libsnappy) compressed them, in order. */
  readonly golden?: readonly Uint8Array[];
}

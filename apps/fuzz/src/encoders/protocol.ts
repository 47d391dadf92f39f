// Messages between the encoder fuzz parent and its children (Node IPC, advanced serialization).
import type { EncoderInputSpec } from "./inputs.js";

/**
 * What compressing one input did:
 * - `ok`: the reference decodes the stream to the input, the codec's own uncompress agrees,
 *   and the stream fits `maxCompressedLength`.
 * - `wrongBytes`: a valid stream that decodes to other bytes (the encoder corrupted data).
 * - `invalidStream`: the reference rejects the stream.
 * - `selfMismatch`: the reference decodes the input, but the codec's own uncompress does not.
 * - `overBound`: round-trips, but is longer than `maxCompressedLength(n)`.
 * - `threw`: compress threw.
 * - `crash`, `hang`: the child died, or was killed after the hang limit.
 */
export type EncoderOutcome =
  | "ok"
  | "wrongBytes"
  | "invalidStream"
  | "selfMismatch"
  | "overBound"
  | "threw"
  | "crash"
  | "hang";

export const ENCODER_OUTCOMES: readonly EncoderOutcome[] = [
  "ok",
  "wrongBytes",
  "invalidStream",
  "selfMismatch",
  "overBound",
  "threw",
  "crash",
  "hang",
];

export type EncoderParentMessage =
  | { type: "load"; entry: string; target: "adapter" | "raw"; variant?: string }
  | { type: "run"; specs: EncoderInputSpec[]; from: number };

export type EncoderChildMessage =
  | { type: "ready"; library: string }
  | { type: "loadFailed"; reason: string }
  | {
      type: "result";
      index: number;
      outcome: EncoderOutcome;
      detail: string;
      in: number;
      out: number;
      ms: number;
      /** For a stream that round-trips: its longest copy offset and copy-4 count. */
      shape?: { maxOffset: number; copy4: number };
    };

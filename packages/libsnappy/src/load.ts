// The binding's loader, shared by the codec (index.ts) and the raw backend (raw.ts).
import { loadBackend } from "@snappykit/core/node";

const PACKAGE = "snappy";

export type Callback = (error: Error | null, result?: Buffer) => void;

/** The part of `snappy@6`'s API this adapter uses (from its snappy.js). */
interface SnappyV6 {
  compressSync(input: Buffer): Buffer;
  compress(input: Buffer, callback: Callback): void;
  uncompressSync(compressed: Buffer, options: { asBuffer: true }): Buffer;
  uncompress(compressed: Buffer, options: { asBuffer: true }, callback: Callback): void;
}

// Without asBuffer: true snappy@6 would decode to a string.
export const AS_BUFFER = { asBuffer: true } as const;

// Loaded on first use, not at import: the addon is compiled at install and may be missing
// or built for another Node ABI. createCodec then rejects with UNSUPPORTED and the reason.
export const load = () => loadBackend<SnappyV6>(PACKAGE, import.meta.url);

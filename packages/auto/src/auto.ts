// The public types and the shipped data, shared by the Node and browser entries.
import type { SnappyCodec, UncompressOptions } from "@snappykit/core";
import pkg from "../package.json" with { type: "json" };
import shipped from "../thresholds.json" with { type: "json" };

/** This package and its version: `@snappykit/auto@x.y.z`. */
export const library = `${pkg.name}@${pkg.version}`;

/** The two operations a threshold applies to. */
export type Op = "compress" | "uncompress";

/**
 * Per operation, the smallest uncompressed size (bytes) sent to the native codec; smaller
 * inputs go to `@snappykit/ts`. `null` means never native.
 */
export interface Thresholds {
  readonly compress: number | null;
  readonly uncompress: number | null;
}

/** Where the shipped thresholds came from (see thresholds.json in this package). */
export interface Provenance {
  readonly commit: string;
  readonly node: string;
  readonly machine: string;
  readonly date: string;
  /** The command that measured them. */
  readonly command: string;
  /** The command that turned that measurement into thresholds.json. */
  readonly generatedBy: string;
}

/** Options for `createCodec`. */
export interface AutoOptions {
  /**
   * Override the shipped crossover sizes, per operation (the rest keep the shipped value).
   * `0` sends everything to native, `null` nothing.
   */
  thresholds?: Partial<Thresholds>;
  /**
   * Try to load the native codec (`@snappykit/napi`). `false` uses `@snappykit/ts` for
   * every call, e.g. to take native code out of a comparison.
   * @default true
   */
  native?: boolean;
}

/** What `describe()` reports: which codecs are in use and why. */
export interface AutoDescription {
  /** The pure-TypeScript codec, always loaded: `@snappykit/ts@x.y.z`. */
  readonly ts: string;
  /** The native library in use (`snappy@7.x.y`), or `null` when every call goes to ts. */
  readonly native: string | null;
  /** Why native is or is not in use (the load error, verbatim, when it failed). */
  readonly reason: string;
  /** The thresholds in force (shipped, overridden, or all-`null` without native). */
  readonly thresholds: Thresholds;
  /** Where the shipped thresholds were measured. */
  readonly provenance: Provenance;
  /** Which operations write into caller memory (through ts), by name. */
  readonly into: readonly string[];
}

/** A {@link SnappyCodec} that routes each call by size, and says how. */
export interface AutoCodec extends SnappyCodec {
  /** Always present: a function of the format (see {@link SnappyCodec.uncompressedLength}). */
  readonly uncompressedLength: (input: Uint8Array, options?: UncompressOptions) => number;
  /** Always present: a function of the format (see {@link SnappyCodec.maxCompressedLength}). */
  readonly maxCompressedLength: (length: number) => number;
  /** Which codecs are in use, why, and the thresholds in force. */
  describe(): AutoDescription;
  /** The codec (`"ts"` or `"napi"`) that gets `op` on an input of `size` uncompressed bytes. */
  backendFor(op: Op, size: number): "ts" | "napi";
}

/** The shipped data file, as read. */
export const shippedThresholds: Thresholds = {
  compress: shipped.compress,
  uncompress: shipped.uncompress,
};
export const provenance: Provenance = shipped.provenance;

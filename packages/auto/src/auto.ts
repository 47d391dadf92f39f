// The public types and the shipped data, shared by the Node and browser entries.
import type { SnappyCodec, UncompressOptions } from "@snappykit/core";
import pkg from "../package.json" with { type: "json" };
import shipped from "../thresholds.json" with { type: "json" };

/** This package and its version: `@snappykit/auto@x.y.z`. */
export const library = `${pkg.name}@${pkg.version}`;

/** The two operations a threshold applies to. */
export type Op = "compress" | "uncompress";

/**
 * What kind of data a call carries, judged per call (see the package README): block-like
 * data that Snappy shrinks, or data it cannot (blobs, column sidecars, random bytes), on
 * which `@snappykit/ts` stays faster than native up to much larger sizes.
 */
export type Kind = "compressible" | "incompressible";

/**
 * Per kind, the smallest uncompressed size (bytes) sent to the native codec; smaller inputs
 * go to `@snappykit/ts`. `null` means never native.
 */
export interface KindThresholds {
  readonly compressible: number | null;
  readonly incompressible: number | null;
}

/** Per operation and kind, the smallest uncompressed size sent to native. */
export interface Thresholds {
  readonly compress: KindThresholds;
  readonly uncompress: KindThresholds;
}

/** An override for one operation: a size (or `null`) for both kinds, or per kind. */
export type ThresholdOverride = number | null | Partial<KindThresholds>;

/** What a call with a given input does, and why (`explain`). */
export interface Choice {
  readonly backend: "ts" | "napi";
  /** The uncompressed size routed by: `input.length`, or the length the stream declares. */
  readonly size: number;
  readonly kind: Kind;
  /** The threshold for that op and kind (`null`: never native). */
  readonly threshold: number | null;
}

/**
 * Where a set of thresholds came from: this package's thresholds.json (`source: "shipped"`),
 * or a calibration on the machine that runs it (`pnpm bench --calibrate`: "calibrated").
 */
export interface Provenance {
  readonly source: "shipped" | "calibrated";
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
   * Override the shipped crossover sizes, per operation, for both kinds (a number) or per
   * kind (`{ incompressible: 65536 }`); the rest keep the shipped values. `0` sends
   * everything to native, `null` nothing.
   */
  thresholds?: {
    readonly compress?: ThresholdOverride;
    readonly uncompress?: ThresholdOverride;
    /**
     * Where they came from: a calibration's thresholds file carries it, and is passed as it
     * is (`JSON.parse` of it); `describe()` then names it.
     */
    readonly provenance?: Provenance;
  };
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
  /** How each call's kind is judged, in words. */
  readonly kinds: { readonly compress: string; readonly uncompress: string };
  /**
   * Which thresholds are in force: the shipped ones, a calibration's (from the file given
   * as `thresholds`), or "custom" (sizes given by hand, without a provenance).
   */
  readonly source: "shipped" | "calibrated" | "custom";
  /**
   * Where the thresholds in force were measured: the calibration's machine, Node and date,
   * or the shipped ones' (also for custom sizes, which replace only what they name).
   */
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
  /**
   * The codec (`"ts"` or `"napi"`) that gets `op` on `size` uncompressed bytes of `kind`
   * (default `"compressible"`).
   */
  backendFor(op: Op, size: number, kind?: Kind): "ts" | "napi";
  /** What `op` on this very input does: its size, its kind, the threshold and the codec. */
  explain(op: Op, input: Uint8Array): Choice;
}

/** The shipped data file, as read. */
export const shippedThresholds: Thresholds = {
  compress: shipped.compress,
  uncompress: shipped.uncompress,
};
export const provenance: Provenance = { ...shipped.provenance, source: "shipped" };

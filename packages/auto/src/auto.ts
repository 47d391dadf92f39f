// The public types and the shipped data, shared by the Node and browser entries.
import type { SnappyCodec } from "@snappykit/core";
import pkg from "../package.json" with { type: "json" };
import shipped from "../thresholds.json" with { type: "json" };

/** This package and its version: `@snappykit/auto@x.y.z`. */
export const library = `${pkg.name}@${pkg.version}`;

/** The two operations a threshold applies to. */
export type Op = "compress" | "uncompress";

/**
 * Every routed call: the into-calls follow their op's thresholds where the native codec has
 * them (a backend of your own may), and go to ts where it does not (snappy@7 has no API that
 * writes into caller memory).
 */
export type CallOp = Op | "compressInto" | "uncompressInto";

/** Which codec a call goes to: `"ts"`, `"napi"`, or the `name` of a backend of your own. */
export type Backend = "ts" | "napi" | (string & {});

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
  readonly backend: Backend;
  /** The uncompressed size routed by: `input.length`, or the length the stream declares. */
  readonly size: number;
  readonly kind: Kind;
  /** The threshold for that op and kind (`null`: never native). */
  readonly threshold: number | null;
}

/**
 * Where a set of thresholds came from: this package's thresholds.json (`source: "shipped"`),
 * or a calibration on the machine that runs it (`npx @snappykit/auto calibrate`: "calibrated").
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
  /** The native codec measured against ts (a calibration's: snappy@7, or `--backend`'s). */
  readonly backend?: string;
  /** The bytes measured, in words, when not the shipped fixtures' streams. */
  readonly data?: string;
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
   * The codec for sizes at or over the thresholds: `true` loads `@snappykit/napi`, `false`
   * uses `@snappykit/ts` for every call (e.g. to take native code out of a comparison), and a
   * {@link SnappyCodec} of your own (e.g. a Bun FFI build) takes napi's place once it passes
   * `@snappykit/conformance`'s checks at load (an optional peer dependency; `createCodec`
   * rejects a codec that fails any of them).
   * @default true
   */
  native?: boolean | SnappyCodec;
}

/** What `describe()` reports: which codecs are in use and why. */
export interface AutoDescription {
  /** The pure-TypeScript codec, always loaded: `@snappykit/ts@x.y.z`. */
  readonly ts: string;
  /** The native library in use (`snappy@7.x.y`), or `null` when every call goes to ts. */
  readonly native: string | null;
  /** The name its calls go by in `backendFor`/`explain` (`"napi"`, or your codec's name). */
  readonly nativeName: string | null;
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
  /**
   * Where the into-calls go: `"routed"` (by their op's thresholds, as `explain` says) or
   * `"ts"` (always: the native codec cannot write into caller memory).
   */
  readonly into: {
    readonly compressInto: "routed" | "ts";
    readonly uncompressInto: "routed" | "ts";
  };
}

/** A {@link SnappyCodec} that routes each call by size, and says how. */
export interface AutoCodec extends SnappyCodec {
  /** Always present (see {@link AutoDescription.into} for where it goes). */
  readonly compressInto: NonNullable<SnappyCodec["compressInto"]>;
  /** Always present (see {@link AutoDescription.into} for where it goes). */
  readonly uncompressInto: NonNullable<SnappyCodec["uncompressInto"]>;
  /** Which codecs are in use, why, and the thresholds in force. */
  describe(): AutoDescription;
  /**
   * The codec that gets `op` on `size` uncompressed bytes of `kind` (default
   * `"compressible"`).
   */
  backendFor(op: CallOp, size: number, kind?: Kind): Backend;
  /** What `op` on this very input does: its size, its kind, the threshold and the codec. */
  explain(op: CallOp, input: Uint8Array): Choice;
}

/** The shipped data file, as read. */
export const shippedThresholds: Thresholds = {
  compress: shipped.compress,
  uncompress: shipped.uncompress,
};
export const provenance: Provenance = { ...shipped.provenance, source: "shipped" };

/**
 * Why a Snappy operation failed, coarsely. Codes are stable: match on them, not on messages;
 * {@link SnappyError.reason} says exactly what was wrong.
 *
 * - `CORRUPT_INPUT`: the compressed bytes are not a valid Snappy stream.
 * - `LENGTH_LIMIT`: the stream declares more output than the caller allowed.
 * - `CHECKSUM_MISMATCH`: a framed chunk's CRC-32C does not match its data.
 * - `UNSUPPORTED`: the backend cannot do this here (failed to load, missing feature).
 * - `INVALID_ARGUMENT`: the caller passed something that is not a byte array or a bad option.
 * - `OUTPUT_TOO_SMALL`: the caller's output array for `compressInto`/`uncompressInto` is
 *   shorter than the operation needs; nothing was written.
 * - `BACKEND_ERROR`: the backend failed in a way snappykit could not classify.
 */
export type SnappyErrorCode =
  | "CORRUPT_INPUT"
  | "LENGTH_LIMIT"
  | "CHECKSUM_MISMATCH"
  | "UNSUPPORTED"
  | "INVALID_ARGUMENT"
  | "OUTPUT_TOO_SMALL"
  | "BACKEND_ERROR";

/**
 * Whose fault a failure is, so that a caller can act on it: only a `peer`'s bytes should cost
 * that peer (a gossip or req/resp scorer); a `backend` fault is a bug or a missing feature of
 * the Snappy library behind the codec (or of the adapter around it); a `caller` fault is a bug
 * in the calling code (a wrong argument, an option, an output array too small).
 */
export type SnappyErrorFault = "peer" | "backend" | "caller";

/** The numbers an error can carry, as fields of the error; each reason carries some of them. */
export interface SnappyErrorNumbers {
  /** Byte position in the input of the element, chunk or prefix at fault. */
  readonly at: number;
  /** The length the stream (preamble, chunk or prefix) declares. */
  readonly declared: number;
  /** The limit it was checked against (`maxLength`, `minSize`, a read budget, a chunk cap). */
  readonly limit: number;
  /** A copy's offset. */
  readonly offset: number;
  /** Output bytes produced before the fault. */
  readonly produced: number;
  /** The length of the element or chunk at fault, or of the caller's array. */
  readonly length: number;
  /** What was expected and what was found (a checksum, a byte count). */
  readonly expected: number;
  readonly actual: number;
  /** A framed chunk's type byte. */
  readonly chunkType: number;
}

type Field = keyof SnappyErrorNumbers;

/** A reason's code, fault and fields: a row of {@link REASONS}, or of a package's own table. */
export interface ReasonSpec {
  readonly code: SnappyErrorCode;
  readonly fault: SnappyErrorFault;
  /** The fields every error of the reason carries. */
  readonly fields: readonly Field[];
  /** The fields it carries where they are known. */
  readonly optional?: readonly Field[];
}

/**
 * Every reason a {@link SnappyError} names: its {@link SnappyErrorCode}, whose fault it is,
 * and the fields it carries (the type of an error narrows to them by its `reason`). A reason
 * never changes its code or fault; new reasons may be added (match with a `default`). The
 * README's table, checked against this one by errors.test.ts, adds each reason's format or
 * spec clause.
 */
export const REASONS = {
  // The caller's arguments.
  "not-bytes": { code: "INVALID_ARGUMENT", fault: "caller", fields: [] },
  detached: { code: "INVALID_ARGUMENT", fault: "caller", fields: [] },
  "bad-options": { code: "INVALID_ARGUMENT", fault: "caller", fields: [] },
  "overlapping-output": { code: "INVALID_ARGUMENT", fault: "caller", fields: [] },
  "bad-argument": { code: "INVALID_ARGUMENT", fault: "caller", fields: [] },
  "output-too-small": { code: "OUTPUT_TOO_SMALL", fault: "caller", fields: ["length", "limit"] },
  // The backend.
  unsupported: { code: "UNSUPPORTED", fault: "backend", fields: [] },
  "backend-failed": {
    code: "BACKEND_ERROR",
    fault: "backend",
    fields: [],
    optional: ["at", "actual"],
  },
  "backend-rejected": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: [],
    optional: ["at", "declared", "produced"],
  },
  // Lengths against the caller's limits.
  "length-over-limit": {
    code: "LENGTH_LIMIT",
    fault: "peer",
    fields: ["declared", "limit"],
    optional: ["produced"],
  },
  "length-under-minimum": { code: "CORRUPT_INPUT", fault: "peer", fields: ["declared", "limit"] },
  // The raw (block) format.
  truncated: {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: [],
    optional: ["at", "declared", "produced", "length"],
  },
  "bad-preamble": { code: "CORRUPT_INPUT", fault: "peer", fields: ["at"] },
  "length-over-expansion": { code: "CORRUPT_INPUT", fault: "peer", fields: ["declared", "limit"] },
  "literal-past-input": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: ["at", "length", "produced"],
  },
  "offset-zero": { code: "CORRUPT_INPUT", fault: "peer", fields: ["at", "produced"] },
  "offset-past-output": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: ["at", "offset", "produced"],
  },
  "output-overrun": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: ["at", "declared", "produced"],
    optional: ["length"],
  },
  // The framing format.
  "checksum-mismatch": {
    code: "CHECKSUM_MISMATCH",
    fault: "peer",
    fields: ["at", "expected", "actual", "length"],
  },
  "bad-stream-identifier": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: ["at", "chunkType", "length"],
  },
  "reserved-unskippable-chunk": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: ["at", "chunkType"],
  },
  "chunk-too-short": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: ["at", "chunkType", "length"],
  },
  "oversize-chunk": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: ["at", "limit"],
    optional: ["length", "declared"],
  },
} as const satisfies Record<string, ReasonSpec>;

type CoreReasons = typeof REASONS;

/**
 * Every reason a {@link SnappyError} can name: core's ({@link REASONS}), and those of the
 * packages built on core, which add theirs to this interface by module augmentation and to
 * the run-time table with {@link defineReasons} (@snappykit/p2p's `ssz_snappy` and req/resp
 * reasons).
 */
export interface SnappyErrorReasons extends CoreReasons {}

/** Exactly what was wrong: see {@link REASONS} and the README's table. */
export type SnappyErrorReason = keyof SnappyErrorReasons;

type Spec<R extends SnappyErrorReason> = SnappyErrorReasons[R];
type Needed<R extends SnappyErrorReason> = Spec<R>["fields"][number];
type Optional<R extends SnappyErrorReason> =
  Spec<R> extends { optional: readonly (infer F extends Field)[] } ? F : never;

/** The code of each of core's reasons, as data: {@link REASONS} without faults and fields. */
export const REASON_CODES = Object.fromEntries(
  Object.entries(REASONS).map(([reason, spec]) => [reason, spec.code]),
) as { readonly [R in keyof CoreReasons]: CoreReasons[R]["code"] };

/**
 * The numbers an error of reason `R` carries: those it always has, and those it has where
 * they are known (the README's table lists them too). For a union of reasons, one of theirs.
 */
export type SnappyErrorFields<R extends SnappyErrorReason = SnappyErrorReason> =
  R extends SnappyErrorReason
    ? { readonly [K in Needed<R>]: number } & { readonly [K in Optional<R>]?: number }
    : never;

/** What {@link SnappyError}'s constructor takes besides the message: the fields, and a cause. */
export type SnappyErrorDetails<R extends SnappyErrorReason = SnappyErrorReason> =
  SnappyErrorFields<R> & { readonly cause?: unknown };

/** The details argument: required where the reason has fields it always carries. */
type DetailsArgument<R extends SnappyErrorReason> = [Needed<R>] extends [never]
  ? [details?: SnappyErrorDetails<R>]
  : [details: SnappyErrorDetails<R>];

/** Every reason's spec, core's and those {@link defineReasons} added. */
const TABLE = new Map<string, ReasonSpec>(Object.entries(REASONS));

/**
 * Add a package's reasons to those a {@link SnappyError} may name, returning `table`; declare
 * them to the type too, by augmenting {@link SnappyErrorReasons}. Defining a reason again with
 * the same spec is allowed (two copies of a package); with another spec it throws.
 */
export function defineReasons<const T extends Record<string, ReasonSpec>>(table: T): T {
  for (const [reason, spec] of Object.entries(table)) {
    const known = TABLE.get(reason);
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(spec)) {
      throw new TypeError(`SnappyError reason ${reason} is already defined otherwise`);
    }
    TABLE.set(reason, spec);
  }
  return table;
}

const fieldsOf = (reason: string): readonly Field[] => {
  const spec = TABLE.get(reason)!;
  return [...spec.fields, ...(spec.optional ?? [])];
};

class SnappyErrorClass extends Error {
  override readonly name = "SnappyError";
  /** Coarse, stable class of the failure; see {@link SnappyErrorCode}. */
  readonly code: SnappyErrorCode;
  /** Exactly what was wrong; see {@link REASONS}. */
  readonly reason: SnappyErrorReason;
  /** Whose fault it is; see {@link SnappyErrorFault}. */
  readonly fault: SnappyErrorFault;

  constructor(
    reason: SnappyErrorReason,
    message: string,
    details?: Partial<SnappyErrorNumbers> & { readonly cause?: unknown },
  ) {
    super(message, details && "cause" in details ? { cause: details.cause } : undefined);
    const spec = TABLE.get(reason);
    if (spec === undefined) throw new TypeError(`unknown SnappyError reason: ${String(reason)}`);
    this.code = spec.code;
    this.reason = reason;
    this.fault = spec.fault;
    if (details === undefined) return;
    // Only the reason's own fields: a number given for another (withContext adds a position
    // to reasons that have none) is not carried.
    for (const key of fieldsOf(reason)) {
      if (details[key] !== undefined) {
        Object.defineProperty(this, key, { value: details[key], enumerable: true });
      }
    }
  }
}

/**
 * An error of reason `R`: its code, fault and the fields the reason carries, the others
 * `undefined`. `SnappyError` alone is the union over every reason, so a `switch` on
 * `error.reason` narrows the fields it can read.
 */
export type SnappyError<R extends SnappyErrorReason = SnappyErrorReason> =
  R extends SnappyErrorReason
    ? SnappyErrorClass & {
        readonly reason: R;
        readonly code: Spec<R>["code"];
        readonly fault: Spec<R>["fault"];
      } & SnappyErrorFields<R> & {
          readonly [K in Exclude<Field, Needed<R> | Optional<R>>]?: undefined;
        }
    : never;

// Named as the type is, in stack traces and inspection.
Object.defineProperty(SnappyErrorClass, "name", { value: "SnappyError" });

/** The only error type snappykit codecs throw for bad input or a backend failure. */
export const SnappyError = SnappyErrorClass as unknown as {
  new <R extends SnappyErrorReason>(
    reason: R,
    message: string,
    ...details: DetailsArgument<R>
  ): SnappyError<R>;
  readonly prototype: SnappyError;
};

/**
 * `error` again, its message prefixed with `context` (where it happened: a chunk, a backend),
 * its reason and numbers kept and `details` added (a position in the outer stream replaces
 * the inner one); the original is the `cause`.
 */
export function withContext<R extends SnappyErrorReason>(
  error: SnappyError<R>,
  context: string,
  details?: Partial<SnappyErrorNumbers> & { readonly cause?: unknown },
): SnappyError<R> {
  const kept: Record<string, unknown> = {};
  for (const key of fieldsOf(error.reason)) {
    if (error[key] !== undefined) kept[key] = error[key];
  }
  return new SnappyErrorClass(error.reason, `${context}: ${error.message}`, {
    ...kept,
    ...details,
    cause: details?.cause ?? error,
  }) as SnappyError<R>;
}

/** True when `error` is a {@link SnappyError}, optionally with the given code. */
export function isSnappyError(error: unknown, code?: SnappyErrorCode): error is SnappyError {
  return error instanceof SnappyError && (code === undefined || error.code === code);
}

/** The reason {@link toSnappyError} gives a failure it cannot classify further, per code. */
const UNCLASSIFIED: Partial<Record<SnappyErrorCode, SnappyErrorReason>> = {
  CORRUPT_INPUT: "backend-rejected",
  BACKEND_ERROR: "backend-failed",
  UNSUPPORTED: "unsupported",
  INVALID_ARGUMENT: "bad-argument",
};

/**
 * Turn whatever a backend threw into a {@link SnappyError}, keeping the original as `cause`.
 * A `SnappyError` passes through unchanged; anything else becomes `code` (by default
 * `CORRUPT_INPUT`, since backends throw on bad input; reason `backend-rejected`, or
 * `backend-failed`, `unsupported`, `bad-argument` for those codes) with `context` and the
 * backend's message.
 */
export function toSnappyError(
  error: unknown,
  context: string,
  code: "CORRUPT_INPUT" | "BACKEND_ERROR" | "UNSUPPORTED" | "INVALID_ARGUMENT" = "CORRUPT_INPUT",
): SnappyError {
  if (error instanceof SnappyError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new SnappyError(UNCLASSIFIED[code]!, `${context}: ${detail}`, {
    cause: error,
  }) as SnappyError;
}

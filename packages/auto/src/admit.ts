// A backend of your own in napi's place (`createCodec({ native: codec })`): admitted only
// once it passes the conformance suite's checks, so routing can never send a call to a codec
// that crashes, returns wrong bytes or accepts what the others reject. The checks live in
// @snappykit/conformance (an optional peer dependency), imported only when a codec is given.
import { type SnappyCodec, SnappyError } from "@snappykit/core";
import type { AutoOptions } from "./auto.js";
import type { NativeResult } from "./route.js";

/** Why the browser builds route every call to ts unless given a codec of their own. */
export const NO_NATIVE = { reason: "browser build: no native code, @snappykit/ts for every call" };

/** What admission found: the codec, and how its bytes compare with ts's. */
export interface Admission {
  readonly codec: SnappyCodec;
  /** Words for `describe().reason`. */
  readonly reason: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Run every check of `@snappykit/conformance/cases` on `codec`, and compare its compressed
 * bytes with ts's on the suite's corpus.
 * @throws SnappyError `UNSUPPORTED` when @snappykit/conformance is not installed;
 *   `INVALID_ARGUMENT` naming the failed checks when the codec fails any.
 */
export async function admit(codec: SnappyCodec, ts: SnappyCodec): Promise<Admission> {
  let cases: typeof import("@snappykit/conformance/cases");
  try {
    cases = await import("@snappykit/conformance/cases");
  } catch (error) {
    throw new SnappyError(
      "unsupported",
      "a native codec of your own is checked at load by @snappykit/conformance: npm install @snappykit/conformance",
      { cause: error },
    );
  }
  const checks = cases.conformanceChecks();
  const failed: string[] = [];
  for (const check of checks) {
    try {
      await check.run(codec);
    } catch (error) {
      failed.push(`${check.group} / ${check.name}: ${messageOf(error)}`);
    }
  }
  if (failed.length > 0) {
    throw new SnappyError(
      "bad-options",
      `native: ${codec.library} failed ${failed.length} of ${checks.length} conformance checks, so auto will not route to it: ${failed.slice(0, 3).join("; ")}${failed.length > 3 ? "; …" : ""}`,
    );
  }
  // Not a condition of admission (a newer libsnappy writes other valid bytes), but output
  // then depends on routing, which describe() must say.
  const corpus = cases.builtinCorpus();
  const differ = corpus.filter((item) => {
    const [mine, theirs] = [codec.compress(item.bytes), ts.compress(item.bytes)];
    return mine.length !== theirs.length || cases.firstDifference(mine, theirs) >= 0;
  }).length;
  const bytes =
    differ === 0
      ? "writes the same bytes as ts on the conformance corpus"
      : `writes other bytes than ts on ${differ} of ${corpus.length} corpus items, so compressed output depends on which codec a call goes to`;
  return {
    codec,
    reason: `${codec.library} passed all ${checks.length} conformance checks at load and ${bytes}; sizes at or over the threshold of their kind go to it`,
  };
}

/**
 * The `native` option when it is a codec of your own, admitted; `undefined` when it is not
 * a codec (`true`, `false` or unset), for the entry to decide.
 */
export async function ownNative(
  options: AutoOptions,
  ts: Promise<SnappyCodec>,
): Promise<NativeResult | undefined> {
  const given = Object.hasOwn(options, "native") ? options.native : undefined;
  if (given === undefined || typeof given === "boolean") return undefined;
  if (given === null || typeof given !== "object") {
    throw new SnappyError("bad-options", `native must be a boolean or a SnappyCodec, got ${given}`);
  }
  const { codec, reason } = await admit(given, await ts);
  // The codec itself stands in for its unguarded functions: it has no others.
  return { codec, raw: codec, reason };
}

// The native side of the Node entries (index.ts, raw.ts): `@snappykit/napi` where it loads.
import type { SnappyCodec } from "@snappykit/core";
import { ownNative } from "./admit.js";
import type { AutoOptions } from "./auto.js";
import type { NativeResult } from "./route.js";

/** napi's codec (and with `raw`, its raw backend), a codec of your own, or why neither. */
export async function loadNative(
  options: AutoOptions,
  tsCodec: Promise<SnappyCodec>,
  raw = false,
): Promise<NativeResult> {
  const own = await ownNative(options, tsCodec);
  if (own) return own;
  if (options.native === false) return { reason: "native disabled by options (native: false)" };
  try {
    // Imported on demand: a platform without the prebuilt binary fails here, not at import.
    const codec = await (await import("@snappykit/napi")).createCodec();
    if (!raw) return { codec };
    return { codec, raw: await (await import("@snappykit/napi/raw")).createRaw() };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { reason: `native unavailable, using @snappykit/ts for every call: ${detail}` };
  }
}

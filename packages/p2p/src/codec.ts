import { createCodec } from "@snappykit/auto";
import type { SnappyCodec } from "@snappykit/core";

let auto: Promise<SnappyCodec> | undefined;

/** The codec used when none is given: one `@snappykit/auto` codec, created on first use. */
export function defaultCodec(): Promise<SnappyCodec> {
  auto ??= createCodec();
  return auto;
}

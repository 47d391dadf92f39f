import { runConformance } from "@snappykit/conformance";
import * as adapter from "./index.js";
import * as raw from "./raw.js";

// createCodec and createRaw with the library scripts/test.mjs names (tools/libsnappy's
// build), named after this folder; the version is the one that build reports.
runConformance({
  module: adapter,
  raw,
  url: import.meta.url,
  library: `libsnappy@${process.env.SNAPPYKIT_FFI_VERSION}`,
});

import { runConformance } from "@snappykit/conformance";
import * as adapter from "./index.js";
import * as raw from "./raw.js";

// createCodec, every createVariants codec and createRaw (./raw), named after this folder.
runConformance({ module: adapter, raw, url: import.meta.url });

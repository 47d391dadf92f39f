import { runConformance } from "@snappykit/conformance";
import * as adapter from "./index.js";

// createCodec, every createVariants codec and createRaw, named after this folder.
runConformance({ module: adapter, url: import.meta.url });

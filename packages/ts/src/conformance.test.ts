import { runConformance } from "@snappykit/conformance";
import { createCodec } from "./index.js";

runConformance({ setup: () => createCodec() });

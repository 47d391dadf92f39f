import { runConformance } from "@snappykit/conformance";
import * as adapter from "./index.js";
import * as raw from "./raw.js";

runConformance({ module: adapter, raw, url: import.meta.url });

import { runConformance } from "@snappykit/conformance";
import * as adapter from "./index.js";

runConformance({ module: adapter, url: import.meta.url });

import { runConformance } from "@snappykit/conformance";
import * as adapter from "./index.js";
import { createCodec } from "./index.js";

// With the shipped thresholds, and with a crossover inside the corpus's sizes so both
// backends answer part of every check whatever the shipped data say.
runConformance({ module: adapter, url: import.meta.url });
runConformance({ setup: () => createCodec({ thresholds: { compress: 1000, uncompress: 1000 } }) });

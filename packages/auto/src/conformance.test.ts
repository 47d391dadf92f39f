import { runConformance } from "@snappykit/conformance";
import { createCodec } from "./index.js";

// With the shipped thresholds, and with a crossover inside the corpus's sizes so both
// backends answer part of every check whatever the shipped data say.
runConformance({ setup: () => createCodec() });
runConformance({ setup: () => createCodec({ thresholds: { compress: 1000, uncompress: 1000 } }) });

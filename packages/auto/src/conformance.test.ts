import { runConformance } from "@snappykit/conformance";
import * as adapter from "./index.js";
import { createCodec } from "./index.js";
import * as raw from "./raw.js";

// With the shipped thresholds; with a crossover inside the corpus's sizes so both backends
// answer part of every check whatever the shipped data say; and with the two kinds split
// there, so the kind tests (sampling, declared-length ratio) see every hostile input too.
runConformance({ module: adapter, raw, url: import.meta.url });
runConformance({ setup: () => createCodec({ thresholds: { compress: 1000, uncompress: 1000 } }) });
runConformance({
  setup: () =>
    createCodec({
      thresholds: {
        compress: { compressible: 0, incompressible: 2000 },
        uncompress: { compressible: 2000, incompressible: 0 },
      },
    }),
});

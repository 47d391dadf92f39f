// Entry of a fork: one target's timing process (see fork.ts).

import { serveChild } from "./fork.js";
import { quietWasiWarning } from "./quiet.js";

quietWasiWarning();
await serveChild(process.argv[2] ?? "{}");

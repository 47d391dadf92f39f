// Entry of a soak process: one codec, one scenario (see soak-worker.ts).
import { quietWasiWarning } from "./quiet.js";
import { serveSoak } from "./soak-worker.js";

quietWasiWarning();
await serveSoak(process.argv[2] ?? "{}");

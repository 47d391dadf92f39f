// Child process of the guided fuzzer: one target's engine, fuzzing one slice per item.
import { serve } from "../serve.js";
import { type EngineOptions, startEngine } from "./engine.js";
import { GUIDED_TARGETS } from "./targets.js";

serve(async (load: Omit<EngineOptions, "target"> & { target: string }) => {
  const target = GUIDED_TARGETS.find((t) => t.name === load.target);
  if (!target) throw new Error(`unknown guided target ${load.target}`);
  const slice = await startEngine({ ...load, target });
  return { library: target.name, run: (until: number) => slice(until) };
});

// Child process entry of the async fuzz: one adapter's waves, one result back.
import type { SnappyCodec } from "@snappykit/core";
import { describeError } from "../outcome.js";
import { openSubject, type Subject, serve } from "../serve.js";
import { type AsyncStart, runWaves } from "./waves.js";

serve(async (load: Subject) => {
  const codec = (await openSubject(load)) as SnappyCodec;
  return {
    library: codec.library,
    run: (start: AsyncStart) =>
      runWaves(codec, start).then(
        (result) => ("skipped" in result ? result : { result }),
        (error: unknown) => ({ failed: describeError(error) }),
      ),
  };
});

// Child process entry of the async fuzz: one adapter's waves, one message back.
import { isSnappyError } from "@snappykit/core";
import { type AsyncStart, runWaves } from "./waves.js";

process.on("message", (start: AsyncStart) => {
  runWaves(start).then(
    (result) => process.send!({ type: "done", result }),
    (error: unknown) =>
      process.send!({
        type: "failed",
        reason:
          error instanceof Error
            ? `${error.name}${isSnappyError(error) ? ` ${error.code}` : ""}: ${error.message}`
            : String(error),
      }),
  );
});

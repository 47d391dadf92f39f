import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { holdPollingIdle } from "./idle.js";

// The kernel answers a read of the file with the latency every request together allows.
const allowed = () => readFileSync("/dev/cpu_dma_latency").readInt32LE(0);

describe("holdPollingIdle", () => {
  it("holds 0 µs until released, or says why it could not", () => {
    const hold = holdPollingIdle();
    try {
      if (hold.note !== "poll") {
        // Not root, or not Linux: the run goes on and the report says so.
        expect(hold.note).toMatch(/^default \(.+\)$/);
        return;
      }
      expect(allowed()).toBe(0);
    } finally {
      hold.release();
      hold.release(); // a second release is harmless
    }
  });
});

import type { TimingOptions, Turn } from "../model/timing.js";

/** Timing settings for tests: a few short batches, enough to exercise every step. */
export const TINY_TIMING: TimingOptions = {
  forks: 2,
  extraForks: 0,
  targetWidthPercent: 5,
  budgetMs: 10_000,
  warmupMs: 5,
  timeMs: 10,
  minSamples: 3,
  sliceMs: 2,
  batchMs: 0.5,
  batchMaxBytes: 256 * 1024,
  allocationRuns: 3,
  clock: "wall",
};

/** A warmed-up case's turns, taken until it has its batches: how many, and the batches. */
export async function takeTurns(
  turn: () => Promise<Turn>,
): Promise<{ turns: number; samples: number[] }> {
  for (let turns = 1; ; turns++) {
    const got = await turn();
    if (got.done) return { turns, samples: got.samples };
  }
}

import { QUICK_TIMING, type TimingOptions, type Turn } from "../model/timing.js";

/** Timing settings for tests: a few short batches, enough to exercise every step. */
export const TINY_TIMING: TimingOptions = {
  ...QUICK_TIMING,
  forks: 2,
  budgetMs: 10_000,
  sliceMs: 2,
  batchMs: 0.5,
  batchMaxBytes: 256 * 1024,
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

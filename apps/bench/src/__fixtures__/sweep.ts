// Sweep cases with known cost curves, for the sweep's figure and rendering tests.
import type { CaseResult } from "../model/report.js";
import { SWEEP_SIZES } from "../model/sweep.js";

/** A case whose fork medians are `ns` × (1, 1.01, 0.99, …): a tight interval around ns. */
export function sweepCase(codec: string, op: string, size: number, ns: number): CaseResult {
  const forkMedians = [1, 1.01, 0.99, 1.02, 0.98, 1.005, 0.995, 1.015, 0.985].map(
    (f) => f * ns * 2,
  );
  const sorted = [...forkMedians].sort((a, b) => a - b);
  return {
    key: `${codec}/sweep-${size}/${op}`,
    codec,
    impl: "adapter",
    library: codec,
    payload: `sweep-${size}`,
    op,
    items: 2,
    bytes: 2 * size,
    batch: 1,
    samples: 9,
    forks: 9,
    forkMedians,
    p50: sorted[4]!,
    ci: { low: sorted[1]!, high: sorted[7]!, level: 0.96 },
    p75: 0,
    p99: 0,
    min: 0,
    max: 0,
    alloc: { heap: 0, external: 0 },
    wallMs: 0,
  };
}

// Per message: ts costs 200 ns + 1 ns/B, napi 800 ns + 0.25 ns/B, hysnappy (wasm) always
// slower than ts: ts = napi at 800 B (200 + x = 800 + x/4).
const cost = {
  ts: (s: number) => 200 + s,
  napi: (s: number) => 800 + s / 4,
  hysnappy: (s: number) => 400 + 2 * s,
};
/** Each codec's runtime, as the sweep reads it from the codecs. */
export const runtime: ReadonlyMap<string, string> = new Map([
  ["ts", "js"],
  ["napi", "native"],
  ["hysnappy", "wasm"],
]);
/** Every codec's compress case at every sweep size. */
export const sweepResults = SWEEP_SIZES.flatMap((size) =>
  Object.entries(cost).map(([codec, f]) => sweepCase(codec, "compress", size, f(size))),
);

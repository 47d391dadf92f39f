// The full property run: ≥ 100,000 generated inputs, each compressed by @snappykit/ts and by
// snappy@7 and required to be byte-identical (and to round-trip). Same generators as the
// quick run in `pnpm test`; only the count differs. Usage: pnpm run property [runs]
import { spawnSync } from "node:child_process";

const runs = process.argv[2] ?? "100000";
const started = performance.now();
const result = spawnSync("npx", ["vitest", "run", "src/compress.test.ts", "-t", "property-based"], {
  stdio: "inherit",
  env: { ...process.env, SNAPPYKIT_PROPERTY_RUNS: runs },
});
console.log(
  `property: ${runs} runs requested, ${((performance.now() - started) / 1000).toFixed(0)} s wall`,
);
process.exit(result.status ?? 1);

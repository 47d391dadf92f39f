#!/usr/bin/env node
// Turns a size sweep into thresholds.json, the data @snappykit/auto ships and routes by:
//
//   pnpm --filter @snappykit/auto run thresholds [path/to/sweep.json]
//
// The sweep is the bench's (`pnpm bench sweep` writes apps/bench/results/sweep.json). The
// derivation is this package's own `thresholdsFromSweep` (src/calibrate.ts), the one
// `npx @snappykit/auto calibrate` uses on a user's machine: per op and stream, the ts/napi
// crossover becomes the smallest size of that kind sent to native.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { thresholdsFromSweep } from "../dist/index.js";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = resolve(packageDir, "../..");

/**
 * Read a sweep.json.
 * @throws Error naming `path` when it cannot be read or holds no series.
 */
export function readSweep(path) {
  let sweep;
  try {
    sweep = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read sweep ${path}: ${error.message}`);
  }
  if (!Array.isArray(sweep?.series)) {
    throw new Error(`${path} is not a size sweep with series (\`pnpm bench sweep\` writes one)`);
  }
  return sweep;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const source = resolve(
    process.env.INIT_CWD ?? process.cwd(),
    process.argv[2] ?? join(repoRoot, "apps/bench/results/sweep.json"),
  );
  // Relative to the repository when inside it, as typed from its root; else absolute.
  const inside = relative(repoRoot, source);
  const shown = inside && !inside.startsWith("..") ? inside : source;
  const data = thresholdsFromSweep(
    readSweep(source),
    `pnpm --filter @snappykit/auto run thresholds ${shown}`,
  );
  writeFileSync(join(packageDir, "thresholds.json"), `${JSON.stringify(data, null, 2)}\n`);
  const both = (t) => `${t.compressible ?? "never"} / ${t.incompressible ?? "never"}`;
  console.log(
    `thresholds.json (compressible / incompressible): compress ${both(data.compress)}, uncompress ${both(data.uncompress)} (from ${shown})`,
  );
}

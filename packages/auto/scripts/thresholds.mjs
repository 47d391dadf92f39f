#!/usr/bin/env node
// Turns a size sweep into thresholds.json, the data @snappykit/auto routes by:
//
//   pnpm --filter @snappykit/auto run thresholds [path/to/sweep.json]
//
// The sweep is the bench's (`pnpm bench --sweep` writes apps/bench/results/sweep.json), read
// as the type both share (`SweepReport`, tools/workspace/src/sweep.ts): per series, points
// and the crossovers. Per op and series, the crossover between "ts" and "napi" becomes the
// smallest size of that kind sent to native: the block stream's for compressible data, the
// sidecar stream's for incompressible data.
import { writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readSweepReport } from "@snappykit/workspace/sweep";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = resolve(packageDir, "../..");
const PAIR = ["napi", "ts"];
const OPS = ["compress", "uncompress"];
/** Which of the sweep's streams stands for which kind of data. */
const KIND_OF_SERIES = { blocks: "compressible", sidecars: "incompressible" };

/**
 * Which codec wins an op with no crossover in range: the one faster at most sizes
 * (medians over payloads). Returns the threshold: 0 (native throughout) or null (never).
 */
function noCrossing(points, op) {
  const bySize = new Map();
  for (const p of points.filter((q) => q.op === op && PAIR.includes(q.codec))) {
    const at = bySize.get(p.size) ?? { napi: [], ts: [] };
    at[p.codec].push(p.p50);
    bySize.set(p.size, at);
  }
  let nativeWins = 0;
  let tsWins = 0;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const { napi, ts } of bySize.values()) {
    if (!napi.length || !ts.length) continue;
    if (median(napi) < median(ts)) nativeWins++;
    else tsWins++;
  }
  if (nativeWins + tsWins === 0) throw new Error(`the sweep has no ts and napi points for ${op}`);
  return nativeWins > tsWins ? 0 : null;
}

/**
 * The thresholds file for `sweep`, made by `generatedBy`.
 * @param {import("@snappykit/workspace/sweep").SweepReport} sweep
 * @param {string} generatedBy
 */
export function thresholdsFromSweep(sweep, generatedBy) {
  const result = {};
  const crossover = {};
  for (const op of OPS) {
    result[op] = {};
    crossover[op] = {};
    for (const [name, kind] of Object.entries(KIND_OF_SERIES)) {
      const series = (sweep.series ?? []).find((s) => s.name === name);
      if (!series)
        throw new Error(
          `the sweep has no "${name}" series (made before --sweep timed each stream?)`,
        );
      const entry = series.crossover.find(
        (c) => c.op === op && [...c.codecs].sort().join() === PAIR.join(),
      );
      if (!entry) throw new Error(`the sweep's ${name} series has no ts/napi crossover for ${op}`);
      result[op][kind] =
        entry.size === null ? noCrossing(series.points, op) : Math.round(entry.size);
      crossover[op][kind] = {
        series: name,
        ratio: series.ratio,
        size: entry.size,
        ci: entry.ci ?? null,
      };
    }
  }
  const env = sweep.environment ?? {};
  const text = (value) => (typeof value === "string" ? value : JSON.stringify(value ?? "unknown"));
  return {
    ...result,
    provenance: {
      commit: text(env.commit),
      node: text(env.node),
      // The bench's sweep.json names the machine by its parts and the command at the top.
      machine: text(
        env.machine ??
          (env.cpu && `${env.cpu} ×${env.cores}, ${env.os} ${env.arch}, ${env.memoryGiB} GiB`),
      ),
      date: text(env.date),
      command: text(env.command ?? sweep.command),
      generatedBy,
      crossover,
    },
  };
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
    readSweepReport(source),
    `pnpm --filter @snappykit/auto run thresholds ${shown}`,
  );
  writeFileSync(join(packageDir, "thresholds.json"), `${JSON.stringify(data, null, 2)}\n`);
  const both = (t) => `${t.compressible ?? "never"} / ${t.incompressible ?? "never"}`;
  console.log(
    `thresholds.json (compressible / incompressible): compress ${both(data.compress)}, uncompress ${both(data.uncompress)} (from ${shown})`,
  );
}

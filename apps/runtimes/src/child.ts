// Entry for `bun` and `deno` child processes: runs the checks on every adapter given as
// JSON in argv (id and module) and prints one JSON line of results. Each adapter is
// imported unbundled, from the module its package's `exports` map gives the runtime.

import { fixturePayloads } from "./payloads.js";
import { type AdapterResult, runTarget, type Target } from "./portable.js";
import type { ChildReport } from "./report.js";

declare const Bun: { version: string } | undefined;
declare const Deno: { version: { deno: string } } | undefined;

const targets = JSON.parse(process.argv[2] ?? "[]") as Target[];
const payloads = fixturePayloads();
const results: AdapterResult[] = [];
for (const target of targets) {
  results.push(await runTarget(target, (specifier) => import(specifier), payloads));
}
const runtime =
  typeof Bun !== "undefined"
    ? `bun ${Bun.version}`
    : typeof Deno !== "undefined"
      ? `deno ${Deno.version.deno}`
      : `node ${process.versions.node}`;
process.stdout.write(`${JSON.stringify({ runtime, results } satisfies ChildReport)}\n`);

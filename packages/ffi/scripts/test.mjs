#!/usr/bin/env node
// `npm test` here: vitest in Node 26 (tools/node-lines), the first Node with node:ffi, on
// the workspace's libsnappy (tools/libsnappy's shared build, through the environment
// variables the adapter reads). Bun and Deno run the same checks in `pnpm test:runtimes`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { provideFfiLibrary } from "@snappykit/workspace/ffi-library";
import { nodeLineBinary } from "@snappykit/workspace/node-lines";

const node = nodeLineBinary("node26");
if (!existsSync(node)) throw new Error(`ffi tests: ${node} is missing: run npm run setup`);
const missing = provideFfiLibrary();
if (missing) throw new Error(`ffi tests: no libsnappy to test with: ${missing}`);
const vitestDir = dirname(createRequire(import.meta.url).resolve("vitest/package.json"));
const vitest = join(vitestDir, "vitest.mjs");
const { status } = spawnSync(node, [vitest, "run", ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(status ?? 1);

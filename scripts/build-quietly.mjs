#!/usr/bin/env node
// `turbo run build` before `pnpm bench` and `npm run docs`, silent when it succeeds: turbo
// prints its banner (version, packages in scope, cache) and summary on stdout whatever
// --output-logs says, which buried the bench's own first lines. Its output is shown, on
// stderr, only when the build fails. Arguments go to turbo (`--filter=…`).
import { spawnSync } from "node:child_process";

const run = spawnSync(
  "turbo",
  ["run", "build", "--output-logs=errors-only", ...process.argv.slice(2)],
  {
    encoding: "utf8",
    shell: process.platform === "win32",
  },
);
if (run.status !== 0) {
  process.stderr.write(`${run.stdout ?? ""}${run.stderr ?? ""}`);
  if (run.error) process.stderr.write(`${run.error.message}\n`);
  process.exit(run.status ?? 1);
}

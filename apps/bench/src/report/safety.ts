// The "Safety on hostile input" section comes from the fuzzer (apps/fuzz), through its
// output file only: the bench does not run or import the fuzzer. A local `pnpm fuzz` run
// wins; a fresh clone falls back to the committed full run.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Where to look for the fuzzer's report, relative to the repository root, in order. */
export const SAFETY_FILES = ["apps/fuzz/results/safety.json", "apps/fuzz/docs/safety.json"];

/** The section body from a fuzz report (its pre-rendered `markdown` field). */
export function renderSafety(json: unknown, file: string): string {
  const markdown = (json as { markdown?: unknown } | null)?.markdown;
  if (typeof markdown !== "string") return `\`${file}\` holds no rendered safety matrix.`;
  // The fuzzer's Markdown starts with its own "## Safety on hostile input" heading.
  const body = markdown.trim().replace(/^## Safety on hostile input\s*/, "");
  return `From \`${file}\` (\`pnpm fuzz\`).\n\n${body}`;
}

/** The section body from the first fuzz report found, else undefined. */
export function loadSafetySection(repoRoot: string): string | undefined {
  const file = SAFETY_FILES.find((f) => existsSync(join(repoRoot, f)));
  if (!file) return undefined;
  try {
    return renderSafety(JSON.parse(readFileSync(join(repoRoot, file), "utf8")), file);
  } catch (error) {
    return `\`${file}\` could not be read: ${(error as Error).message}`;
  }
}

#!/usr/bin/env node
// The README's adapter table, generated from each released adapter's package.json
// (`"snappykit": { "wraps", "runtime", "guard" }`), so adding an adapter needs no README
// edit: an adapter still at version 0.0.0 is not on npm yet and not listed; `pnpm
// version-packages` gives it its first version and runs this with --write, and
// check-packages.mjs fails when the table and the package.json files disagree.
//
//   node scripts/adapter-table.mjs [--write]   (prints the table, or rewrites README.md's)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, workspacePackages } from "@snappykit/workspace";
import { markdownTable } from "@snappykit/workspace/format";

const START = "<!-- adapters: scripts/adapter-table.mjs writes this table -->";
const END = "<!-- /adapters -->";

/** The table for the released adapters of the workspace at `root`. */
export function adapterTable(root = repoRoot) {
  const rows = workspacePackages(root)
    .filter((p) => p.adapter && p.pkg.version !== "0.0.0")
    .map(({ name, relDir, pkg }) => [
      `[\`${name}\`](${relDir})`,
      pkg.snappykit.wraps ?? "",
      pkg.snappykit.runtime ?? "",
      pkg.snappykit.guard ?? "",
    ]);
  return markdownTable(
    ["package", "wraps", "runtime", "guard the adapter adds"],
    ["l", "l", "l", "l"],
    rows,
  );
}

/** README.md's text with the table between the markers replaced by `table`. */
export function withAdapterTable(readme, table) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${START} … ${END} markers`);
  return `${readme.slice(0, start + START.length)}\n\n${table}\n\n${readme.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const table = adapterTable();
  if (process.argv.includes("--write")) {
    const file = join(repoRoot, "README.md");
    writeFileSync(file, withAdapterTable(readFileSync(file, "utf8"), table));
  } else {
    console.log(table);
  }
}

// The Node LTS lines the repository runs in besides the Node that runs it (`pnpm bench
// --runtime node24`, `pnpm test:runtimes`): the registry's `node` package, one pinned version
// per line, in tools/node-lines (a package of its own so that its `node` bins never land on
// anyone's PATH; its README says why). scripts/node-addons.mjs builds the NAN addons for each
// and records in tools/node-lines/addons.json what it built or why it could not.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./index.js";

/** The lines, oldest first: tools/node-lines/package.json's optional dependencies. */
export const NODE_LINES = ["node22", "node24", "node26"] as const;
/** One of {@link NODE_LINES}. */
export type NodeLine = (typeof NODE_LINES)[number];

/** Whether `name` is one of the pinned lines. */
export const isNodeLine = (name: string): name is NodeLine =>
  (NODE_LINES as readonly string[]).includes(name);

/** Where the line's binary is (it may not be installed: an optional dependency). */
export function nodeLineBinary(line: NodeLine, root = repoRoot): string {
  const exe = process.platform === "win32" ? "node.exe" : "node";
  return join(root, "tools/node-lines/node_modules", line, "bin", exe);
}

/**
 * The newest installed line an adapter does not declare it cannot load in (its package.json's
 * `cannotLoad`): where the tools run one that this Node cannot load (ffi: node26).
 */
export function newestLineFor(
  cannotLoad: Readonly<Record<string, string>> | undefined,
  root = repoRoot,
): NodeLine | undefined {
  return [...NODE_LINES]
    .reverse()
    .find((line) => cannotLoad?.[line] === undefined && existsSync(nodeLineBinary(line, root)));
}

/** One line's native addons, as scripts/node-addons.mjs left them. */
export interface LineAddons {
  readonly installed: boolean;
  readonly version?: string;
  readonly abi?: string;
  /** Addon package (`snappy@6.3.5`) → built, or why not. */
  readonly addons?: Readonly<Record<string, { readonly built: boolean; readonly reason?: string }>>;
}

/** tools/node-lines/addons.json, or undefined before `npm run setup` wrote it. */
export function addonStatus(root = repoRoot): Readonly<Record<string, LineAddons>> | undefined {
  const path = join(root, "tools/node-lines/addons.json");
  if (!existsSync(path)) return undefined;
  return (JSON.parse(readFileSync(path, "utf8")) as { lines: Record<string, LineAddons> }).lines;
}

/**
 * Why an adapter depending on `dependency` (its package name, e.g. `snappy`) cannot load in
 * `line`, when an addon of that package did not build for it; undefined when it built.
 */
export function addonFailure(
  line: NodeLine,
  dependency: string,
  root = repoRoot,
): string | undefined {
  const status = addonStatus(root)?.[line];
  if (!status) return undefined;
  if (!status.installed) return `${line} is not installed here (its optional install failed)`;
  for (const [id, result] of Object.entries(status.addons ?? {})) {
    if (id.slice(0, id.lastIndexOf("@")) === dependency && !result.built) {
      return `${id} did not build for Node ${status.version} (ABI ${status.abi}): ${result.reason}`;
    }
  }
  return undefined;
}

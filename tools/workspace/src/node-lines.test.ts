import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./index.js";
import {
  addonFailure,
  isNodeLine,
  NODE_LINES,
  newestLineFor,
  nodeLineBinary,
} from "./node-lines.js";

describe("node lines", () => {
  it("are the optional dependencies tools/node-lines pins, each a node@<line> package", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, "tools/node-lines/package.json"), "utf8"));
    expect(Object.keys(pkg.optionalDependencies)).toEqual([...NODE_LINES]);
    for (const line of NODE_LINES) {
      expect(pkg.optionalDependencies[line]).toMatch(
        new RegExp(`^npm:node@${line.slice(4)}\\.\\d+\\.\\d+$`),
      );
    }
    expect(isNodeLine("node24")).toBe(true);
    expect(isNodeLine("node")).toBe(false);
    expect(nodeLineBinary("node24", "/r")).toMatch(
      /tools[/\\]node-lines[/\\]node_modules[/\\]node24[/\\]bin[/\\]node/,
    );
  });

  it("finds the newest installed line an adapter does not declare it cannot load in", () => {
    const root = mkdtempSync(join(tmpdir(), "node-lines-"));
    for (const line of ["node22", "node24"] as const) {
      mkdirSync(join(nodeLineBinary(line, root), ".."), { recursive: true });
      writeFileSync(nodeLineBinary(line, root), "");
    }
    expect(newestLineFor(undefined, root)).toBe("node24");
    expect(newestLineFor({ node24: "no node:ffi" }, root)).toBe("node22");
    expect(newestLineFor({ node22: "x", node24: "x" }, root)).toBeUndefined();
  });

  it("says why an addon did not build for a line, and nothing when it did", () => {
    const root = mkdtempSync(join(tmpdir(), "node-lines-"));
    mkdirSync(join(root, "tools/node-lines"), { recursive: true });
    expect(addonFailure("node26", "snappy", root)).toBeUndefined();
    writeFileSync(
      join(root, "tools/node-lines/addons.json"),
      JSON.stringify({
        lines: {
          node22: { installed: false },
          node24: {
            installed: true,
            version: "v24.1.0",
            abi: "137",
            addons: { "snappy@6.3.5": { built: true } },
          },
          node26: {
            installed: true,
            version: "v26.0.0",
            abi: "147",
            addons: {
              "snappy@6.3.5": { built: false, reason: "error: no member named 'GetIsolate'" },
            },
          },
        },
      }),
    );
    expect(addonFailure("node22", "snappy", root)).toMatch(/not installed/);
    expect(addonFailure("node24", "snappy", root)).toBeUndefined();
    expect(addonFailure("node26", "snappy", root)).toBe(
      "snappy@6.3.5 did not build for Node v26.0.0 (ABI 147): error: no member named 'GetIsolate'",
    );
    expect(addonFailure("node26", "other", root)).toBeUndefined();
  });
});

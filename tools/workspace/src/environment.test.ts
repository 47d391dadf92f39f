import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { measuredTrees } from "./environment.js";

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();

describe("measuredTrees", () => {
  it("records the trees of the adapters named and of what the app depends on, not apps or tools", () => {
    const m = measuredTrees("@snappykit/bench", ["snappyjs", "napi-copy"]);
    // bench → auto → napi, ts; bench → p2p; every adapter → core; napi-copy is a variant.
    expect(Object.keys(m.trees)).toEqual([
      "fixtures",
      "packages/auto",
      "packages/core",
      "packages/framing",
      "packages/napi",
      "packages/p2p",
      "packages/snappyjs",
      "packages/ts",
    ]);
    expect(m.trees["packages/ts"]).toBe(git("rev-parse", "HEAD:packages/ts"));
    expect(m.commit).toBe(git("rev-parse", "HEAD"));
    expect(typeof m.dirty).toBe("boolean");
  });

  it("finds the package of a runtime's row or a variant by its longest folder-name prefix", () => {
    const m = measuredTrees("@snappykit/fuzz", ["ffi-node26", "napi-v1", "napi-wasi-raw"]);
    expect(Object.keys(m.trees)).toEqual(
      expect.arrayContaining(["packages/ffi", "packages/napi-v1", "packages/napi-wasi"]),
    );
    expect(Object.keys(m.trees)).not.toContain("packages/napi");
  });
});

import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { discoverAdapters, workspacePackages } from "./index.js";

describe("discovery", () => {
  it("lists every workspace package once, adapters among them", () => {
    const packages = workspacePackages();
    expect(new Set(packages.map((p) => p.name)).size).toBe(packages.length);
    expect(packages.map((p) => p.relDir)).toEqual(
      expect.arrayContaining(["tools/workspace", "packages/core"]),
    );
    expect(packages.find((p) => p.name === "@snappykit/core")?.adapter).toBe(false);
  });

  it("finds each adapter by its marker, with the entries its exports map gives", () => {
    const adapters = discoverAdapters();
    expect(adapters.map((a) => a.id)).toEqual(expect.arrayContaining(["napi", "napi-wasi", "ts"]));
    for (const a of adapters) {
      expect(a.packageName).toBe(`@snappykit/${a.id}`);
      expect(a.entry).toBe(`${a.dir}/dist/index.js`);
      expect(a.rawEntry).toBe(`${a.dir}/dist/raw.js`);
      expect(existsSync(a.dir)).toBe(true);
    }
    const wasi = adapters.find((a) => a.id === "napi-wasi")!;
    expect(wasi.browserEntry).toBe(`${wasi.dir}/dist/browser.js`);
    expect(wasi.browserRawEntry).toBe(`${wasi.dir}/dist/raw-browser.js`);
  });
});

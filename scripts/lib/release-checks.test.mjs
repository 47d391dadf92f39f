// The release checks of `pnpm test:release` on crafted manifests, listings and dist-tags:
// each must catch the broken release it exists for, and pass the good one.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  installedProblems,
  metadataProblems,
  releaseProblems,
  snapshotProblems,
  tarballLint,
  unpublishableRanges,
} from "./release-checks.mjs";

const manifest = (extra = {}) => ({
  name: "@snappykit/example",
  version: "0.2.0",
  description: "An example",
  license: "MIT",
  type: "module",
  exports: {
    ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
    "./node": { types: "./dist/node.d.ts", default: "./dist/node.js" },
    "./package.json": "./package.json",
  },
  types: "./dist/index.d.ts",
  files: ["dist"],
  engines: { node: ">=20" },
  repository: {
    type: "git",
    url: "git+https://example.invalid/x.git",
    directory: "packages/example",
  },
  ...extra,
});

describe("tarballLint: a tarball without what the manifest points at", () => {
  const work = mkdtempSync(join(tmpdir(), "release-checks-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A built package whose package.json ships `files`, packed by pnpm as changesets does. */
  const packWith = (files) => {
    const dir = join(work, files.join("-"));
    mkdirSync(join(dir, "dist"), { recursive: true });
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "package.json"), JSON.stringify(manifest({ files })));
    for (const f of ["index.js", "index.d.ts", "node.js", "node.d.ts"]) {
      writeFileSync(join(dir, "dist", f), "export {};\n");
    }
    writeFileSync(join(dir, "src", "index.ts"), "export {};\n");
    const out = execFileSync("pnpm", ["pack", "--pack-destination", dir, "--json"], {
      cwd: dir,
      encoding: "utf8",
    });
    return resolve(dir, JSON.parse(out.slice(out.indexOf("{"))).filename);
  };

  it("names every target when `files` omits dist", async () => {
    const found = await tarballLint(packWith(["src"]), "error");
    for (const file of ["dist/index.js", "dist/node.js"]) {
      expect(found).toContainEqual(
        expect.stringMatching(new RegExp(`FILE_DOES_NOT_EXIST.*${file}`)),
      );
    }
  });

  it("passes when `files` ships dist", async () => {
    expect(await tarballLint(packWith(["dist"]), "error")).toEqual([]);
  });
});

describe("unpublishableRanges: a manifest that keeps a workspace: range", () => {
  it("names each range no registry resolves", () => {
    const m = manifest({
      dependencies: { "@snappykit/core": "workspace:^", snappy: "7.4.3" },
      peerDependencies: { "@snappykit/ts": "catalog:" },
      devDependencies: { "@snappykit/conformance": "workspace:*" },
    });
    expect(unpublishableRanges(m)).toEqual([
      'dependencies.@snappykit/core is "workspace:^"',
      'peerDependencies.@snappykit/ts is "catalog:"',
      'devDependencies.@snappykit/conformance is "workspace:*"',
    ]);
  });

  it("passes real ranges", () => {
    expect(
      unpublishableRanges(manifest({ dependencies: { "@snappykit/core": "^0.2.0" } })),
    ).toEqual([]);
  });
});

describe("releaseProblems: a second release of one package", () => {
  // core ← napi ← auto, and ts, which depends on core only.
  const deps = {
    "@snappykit/core": {},
    "@snappykit/napi": { "@snappykit/core": "^0.2.0" },
    "@snappykit/ts": { "@snappykit/core": "^0.2.0" },
  };
  const before = {
    "@snappykit/core": "0.2.0",
    "@snappykit/napi": "0.2.0",
    "@snappykit/ts": "0.2.0",
    "@snappykit/auto": "0.2.0",
  };
  const manifests = (autoRange) => ({
    ...Object.fromEntries(Object.entries(deps).map(([n, d]) => [n, { name: n, dependencies: d }])),
    "@snappykit/auto": {
      name: "@snappykit/auto",
      dependencies: { "@snappykit/napi": autoRange, "@snappykit/ts": "^0.2.0" },
    },
  });
  const changed = "@snappykit/napi";

  it("passes when the package and its dependent are bumped", () => {
    const after = { ...before, [changed]: "0.3.0", "@snappykit/auto": "0.2.1" };
    expect(releaseProblems({ changed, before, after, manifests: manifests("^0.3.0") })).toEqual([]);
  });

  it("fails when a dependent is not bumped", () => {
    const after = { ...before, [changed]: "0.3.0" };
    expect(releaseProblems({ changed, before, after, manifests: manifests("^0.2.0") })).toEqual([
      "@snappykit/auto: depends on @snappykit/napi but was not bumped (still 0.2.0)",
    ]);
  });

  it("fails when a bumped dependent's range misses the new version", () => {
    const after = { ...before, [changed]: "0.3.0", "@snappykit/auto": "0.2.1" };
    expect(releaseProblems({ changed, before, after, manifests: manifests("^0.2.0") })).toEqual([
      "@snappykit/auto@0.2.1: its range ^0.2.0 for @snappykit/napi misses 0.3.0",
    ]);
  });

  it("fails when a package that does not depend on it moves", () => {
    const after = {
      ...before,
      [changed]: "0.3.0",
      "@snappykit/auto": "0.2.1",
      "@snappykit/ts": "0.2.1",
    };
    expect(releaseProblems({ changed, before, after, manifests: manifests("^0.3.0") })).toEqual([
      "@snappykit/ts: bumped 0.2.0 → 0.2.1 without depending on @snappykit/napi",
    ]);
  });

  it("fails when the package itself was not released", () => {
    expect(
      releaseProblems({ changed, before, after: before, manifests: manifests("^0.2.0") }),
    ).toContain("@snappykit/napi: not released (still 0.2.0)");
  });
});

describe("snapshotProblems: a canary under its own dist-tag", () => {
  const latest = { "@snappykit/napi": "0.3.0", "@snappykit/ts": "0.2.0" };
  const canary = { "@snappykit/napi": "0.0.0-canary-20261201120000" };

  it("passes a canary that left latest alone", () => {
    const distTags = {
      "@snappykit/napi": { latest: "0.3.0", canary: canary["@snappykit/napi"] },
      "@snappykit/ts": { latest: "0.2.0" },
    };
    expect(snapshotProblems({ tag: "canary", canary, latest, distTags })).toEqual([]);
  });

  it("fails a canary published as latest", () => {
    const distTags = {
      "@snappykit/napi": { latest: canary["@snappykit/napi"] },
      "@snappykit/ts": { latest: "0.2.0" },
    };
    expect(snapshotProblems({ tag: "canary", canary, latest, distTags })).toEqual([
      "@snappykit/napi: dist-tag canary is undefined, expected 0.0.0-canary-20261201120000",
      "@snappykit/napi: latest moved to 0.0.0-canary-20261201120000 (was 0.3.0)",
    ]);
  });

  it("fails a snapshot that versioned nothing, or not as a prerelease", () => {
    expect(snapshotProblems({ tag: "canary", canary: {}, latest: {}, distTags: {} })).toEqual([
      "the snapshot versioned no package",
    ]);
    const plain = { "@snappykit/napi": "0.3.1" };
    expect(
      snapshotProblems({
        tag: "canary",
        canary: plain,
        latest: {},
        distTags: { "@snappykit/napi": { canary: "0.3.1" } },
      }),
    ).toEqual(['@snappykit/napi: snapshot version 0.3.1 is not a "canary" prerelease']);
  });
});

describe("metadataProblems: what npm view shows", () => {
  const source = manifest();

  it("passes the manifest as published", () => {
    expect(metadataProblems(structuredClone(source), source, "packages/example")).toEqual([]);
  });

  it("names missing and different fields", () => {
    const view = { ...structuredClone(source), description: "", types: undefined, engines: {} };
    view.repository.directory = "packages/other";
    expect(metadataProblems(view, source, "packages/example")).toEqual([
      "no description",
      "no types",
      'repository.directory is "packages/other", expected "packages/example"',
      "no engines.node",
    ]);
  });
});

describe("installedProblems: @snappykit packages in a consumer's node_modules", () => {
  const latest = { "@snappykit/core": "0.2.0", "@snappykit/napi": "0.3.0" };
  const at = (path, name, version, extra) => ({ path, manifest: { name, version, ...extra } });

  it("passes one latest copy of each", () => {
    const installed = [
      at("node_modules/@snappykit/core/package.json", "@snappykit/core", "0.2.0"),
      at("node_modules/@snappykit/napi/package.json", "@snappykit/napi", "0.3.0", {
        dependencies: { "@snappykit/core": "^0.2.0" },
      }),
    ];
    expect(installedProblems(installed, { latest, requested: ["@snappykit/napi"] })).toEqual([]);
  });

  it("fails a workspace: range, a second core, a stale version and a missing package", () => {
    const installed = [
      at("node_modules/@snappykit/core/package.json", "@snappykit/core", "0.2.0"),
      at("node_modules/x/node_modules/@snappykit/core/package.json", "@snappykit/core", "0.1.0"),
      at("node_modules/@snappykit/napi/package.json", "@snappykit/napi", "0.2.0", {
        dependencies: { "@snappykit/core": "workspace:^" },
      }),
    ];
    expect(
      installedProblems(installed, { latest, requested: ["@snappykit/napi", "@snappykit/ts"] }),
    ).toEqual([
      'node_modules/@snappykit/napi/package.json: dependencies.@snappykit/core is "workspace:^"',
      "@snappykit/core: 0.2.0 and 0.1.0 installed side by side",
      "@snappykit/napi: 0.2.0 installed, latest is 0.3.0",
      "@snappykit/ts: not installed",
    ]);
  });

  it("fails a second copy of the same version (npm's nested copy, pnpm's peer variant)", () => {
    const installed = [
      at("node_modules/@snappykit/core/package.json", "@snappykit/core", "0.2.0"),
      at("node_modules/x/node_modules/@snappykit/core/package.json", "@snappykit/core", "0.2.0"),
    ];
    expect(installedProblems(installed, { latest, requested: [] })).toEqual([
      "@snappykit/core: installed 2 times (node_modules/@snappykit/core/package.json, node_modules/x/node_modules/@snappykit/core/package.json)",
    ]);
  });
});

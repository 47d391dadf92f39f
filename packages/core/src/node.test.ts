import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { isSnappyError } from "./errors.js";
import { asBuffer, externalBuffersTransferable, installedLibrary, loadBackend } from "./node.js";

// A project with installed packages laid out as npm lays them out: `dual` has a nested
// package.json without a name next to its entry (as dual CJS/ESM builds do), `renamed` a
// nested one naming another package, and `orphan` no package.json at all.
const project = mkdtempSync(join(tmpdir(), "snappykit-core-node-"));
const from = pathToFileURL(join(project, "index.js"));
function write(path: string, text: string): void {
  mkdirSync(join(project, path, ".."), { recursive: true });
  writeFileSync(join(project, path), text);
}
write(
  "node_modules/dual/package.json",
  '{ "name": "dual", "version": "1.2.3", "main": "lib/x.js" }',
);
write("node_modules/dual/lib/package.json", '{ "type": "commonjs" }');
write("node_modules/dual/lib/x.js", "module.exports = { answer: 42 };");
write(
  "node_modules/renamed/package.json",
  '{ "name": "renamed", "version": "2.0.0", "main": "a/b.js" }',
);
write("node_modules/renamed/a/package.json", '{ "name": "inner", "version": "9.9.9" }');
write("node_modules/renamed/a/b.js", "module.exports = {};");
write(
  "node_modules/broken/package.json",
  '{ "name": "broken", "version": "3.0.0", "main": "c/d.js" }',
);
write("node_modules/broken/c/package.json", "{ not json");
write("node_modules/broken/c/d.js", "module.exports = {};");
write("node_modules/orphan/index.js", "module.exports = {};");
write("node_modules/throws/package.json", '{ "name": "throws", "version": "1.0.0" }');
write("node_modules/throws/index.js", 'throw new Error("no binary for this platform");');
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("asBuffer", () => {
  it("views the same memory as a Buffer, at the same offset and length", () => {
    const backing = new Uint8Array(16);
    const view = backing.subarray(3, 11);
    const buffer = asBuffer(view);
    expect(Buffer.isBuffer(buffer)).toBe(true);
    expect([buffer.byteOffset, buffer.length]).toEqual([3, 8]);
    buffer[0] = 7;
    expect(backing[3]).toBe(7);
  });

  it("returns a Buffer as it is", () => {
    const buffer = Buffer.from([1, 2, 3]);
    expect(asBuffer(buffer)).toBe(buffer);
  });
});

describe("installedLibrary", () => {
  it("names the package that resolves, past nested package.json files of other names", () => {
    expect(installedLibrary("dual", from)).toBe("dual@1.2.3");
    expect(installedLibrary("renamed", from)).toBe("renamed@2.0.0");
    expect(installedLibrary("broken", from)).toBe("broken@3.0.0");
    expect(installedLibrary("dual", from.href)).toBe("dual@1.2.3");
  });

  it("throws UNSUPPORTED when no package.json up the tree names it", () => {
    try {
      installedLibrary("orphan", from);
    } catch (error) {
      expect(isSnappyError(error, "UNSUPPORTED")).toBe(true);
      expect((error as Error).message).toBe("cannot find the package.json of orphan");
      return;
    }
    throw new Error("found a package.json for orphan");
  });
});

describe("loadBackend", () => {
  it("requires the module and names its version", () => {
    const { module, library } = loadBackend<{ answer: number }>("dual", from);
    expect(module.answer).toBe(42);
    expect(library).toBe("dual@1.2.3");
  });

  it("turns a missing or failing backend into UNSUPPORTED with the reason", () => {
    for (const [name, reason] of [
      ["missing", /^missing failed to load: Cannot find module 'missing'/],
      ["throws", /^throws failed to load: no binary for this platform$/],
    ] as const) {
      try {
        loadBackend(name, from);
      } catch (error) {
        expect(isSnappyError(error, "UNSUPPORTED")).toBe(true);
        expect((error as Error).message).toMatch(reason);
        continue;
      }
      throw new Error(`loaded ${name}`);
    }
  });
});

describe("externalBuffersTransferable", () => {
  it("is true for a buffer that transfers, and transfers the sample (a clone would not detach it)", () => {
    const sample = new Uint8Array(8);
    expect(externalBuffersTransferable(() => sample)).toBe(true);
    expect(sample.buffer.byteLength).toBe(0);
  });

  it("is false for a buffer a transfer copies and leaves attached (a pooled Buffer)", () => {
    // Node 20 copies its untransferable pool (as it does Node-API external buffers) and
    // leaves it attached; later lines throw DataCloneError. Either way: not movable.
    const pooled = Buffer.from([1, 2, 3]);
    expect(externalBuffersTransferable(() => pooled)).toBe(false);
    expect(pooled.buffer.byteLength).toBeGreaterThan(0);
  });

  it("is false for a buffer that cannot be transferred (here one on a SharedArrayBuffer)", () => {
    const shared = new SharedArrayBuffer(8);
    expect(externalBuffersTransferable(() => new Uint8Array(shared))).toBe(false);
    expect(shared.byteLength).toBe(8);
  });
});

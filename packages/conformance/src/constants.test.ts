import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSizeConstants } from "./constants.js";
import { boundarySizes } from "./sizes.js";

/** A package folder holding `files` (paths relative to it). */
function fakePackage(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "sizes-"));
  made.push(dir);
  for (const [path, text] of Object.entries({ "package.json": "{}", ...files })) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe("readSizeConstants", () => {
  it("evaluates arithmetic from the source and reads what it cannot evaluate from the module", async () => {
    const dir = fakePackage({
      "src/a.ts": [
        "const WINDOW = 32 * 1024;",
        "export const LIMIT: number = WINDOW + 0x10;",
        "const HALF = WINDOW >>> 1;",
        "const ALIAS = WINDOW;", // a second name: read where it is defined
        "const TABLE = new Int32Array(256);",
        "const NAME = 'x';",
        "const BYTES = Uint8Array.of(1, 2);",
        "export const CALLED = Math.max(3, 7);", // no property reads: not a size candidate
        "export const BOUND = bound(10);",
        "function bound(n: number) { return n * 2; }",
        "  const INDENTED = 5;", // not top-level
      ].join("\n"),
      "src/a.test.ts": "const IGNORED = 1;",
      "thresholds.json": JSON.stringify({ compress: { small: 4434, never: null }, ratio: 1.5 }),
      "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022" } }),
    });
    const found = await readSizeConstants(dir);
    const name = dir.split(/[\\/]/).pop();
    expect(found.map((c) => [c.name.replace(`${name}/`, ""), c.value])).toEqual([
      ["a.ts WINDOW", 32768],
      ["a.ts LIMIT", 32784],
      ["a.ts HALF", 16384],
      ["a.ts BOUND", 20],
      ["thresholds.json.compress.small", 4434],
    ]);
  });

  it("names a constant it can neither evaluate nor import", async () => {
    const dir = fakePackage({
      "src/b.ts":
        "const PRIVATE = twice(5);\nfunction twice(n: number) { return 2 * n; }\nexport {};",
    });
    await expect(readSizeConstants(dir)).rejects.toThrow(
      /export these size constants so the boundary checks can read them: .*\/src\/b\.ts PRIVATE/,
    );
  });
});

describe("boundarySizes", () => {
  it("takes each constant and each power of two with its neighbours, saying why", () => {
    const plan = boundarySizes(
      [
        { name: "A", value: 100 },
        { name: "B", value: 4096 },
        { name: "RATIO", value: 21.3 },
        { name: "HUGE", value: 2 ** 31 },
      ],
      { maxPowerOfTwo: 8, maxSize: 5000 },
    );
    expect(plan.sizes.map((s) => s.size)).toEqual([
      0, 1, 2, 3, 4, 5, 7, 8, 9, 20, 21, 22, 99, 100, 101, 4095, 4096, 4097,
    ]);
    expect(plan.sizes.find((s) => s.size === 4097)?.because).toEqual(["B (4096) + 1"]);
    expect(plan.sizes.find((s) => s.size === 2)?.because).toEqual(["2^0 + 1", "2^1"]);
    expect(plan.tooLarge).toEqual([{ name: "HUGE", value: 2 ** 31 }]);
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { describe, expect, it } from "vitest";
import { dataArgs, splitArgs } from "./corpus.mjs";

describe("splitArgs", () => {
  it("takes --testdata out, in either spelling, and passes the rest to the bench", () => {
    expect(splitArgs(["--quick", "--testdata", "t", "--forks", "3"])).toEqual({
      testdata: "t",
      bench: ["--quick", "--forks", "3"],
    });
    expect(splitArgs(["--testdata=/x/y"])).toEqual({ testdata: "/x/y", bench: [] });
    expect(splitArgs([])).toEqual({ testdata: undefined, bench: [] });
  });

  it("refuses --testdata without a folder", () => {
    expect(() => splitArgs(["--testdata"])).toThrow(/--testdata needs a folder/);
    expect(() => splitArgs(["--testdata="])).toThrow(/--testdata needs a folder/);
    expect(() => splitArgs(["--testdata", ""])).toThrow(/--testdata needs a folder/);
  });
});

describe("dataArgs", () => {
  it("gives every file of the folder, by name, as a path from the repository's root", () => {
    const dir = mkdtempSync(join(tmpdir(), "corpus-"));
    writeFileSync(join(dir, "urls.10K"), "x");
    writeFileSync(join(dir, "alice29.txt"), "x");
    writeFileSync(join(dir, ".hidden"), "x");
    mkdirSync(join(dir, "sub"));
    const from = (f) => relative(repoRoot, join(dir, f));
    expect(dataArgs(dir)).toEqual(["--data", from("alice29.txt"), "--data", from("urls.10K")]);
  });

  it("says why for a folder it cannot use", () => {
    const dir = mkdtempSync(join(tmpdir(), "corpus-"));
    expect(() => dataArgs(dir)).toThrow(/holds no file/);
    expect(() => dataArgs(join(dir, "nope"))).toThrow(/cannot read .*nope/);
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "./args.js";
import { loadPayloadSource, readUserPayloads } from "./payloads.js";

const dir = () => mkdtempSync(join(tmpdir(), "bench-data-"));

describe("readUserPayloads (--data)", () => {
  it("makes a file one payload of one item and a folder one of many, named by them", () => {
    const root = dir();
    writeFileSync(join(root, "block.ssz"), Uint8Array.of(1, 2, 3));
    mkdirSync(join(root, "gossip/sub"), { recursive: true });
    writeFileSync(join(root, "gossip/b.bin"), Uint8Array.of(9));
    writeFileSync(join(root, "gossip/a.bin"), Uint8Array.of(7, 8));
    writeFileSync(join(root, "gossip/sub/c.bin"), Uint8Array.of(6));
    writeFileSync(join(root, "gossip/empty.bin"), new Uint8Array(0));
    writeFileSync(join(root, "gossip/.hidden"), Uint8Array.of(5));
    const [file, folder] = readUserPayloads([join(root, "block.ssz"), join(root, "gossip")]);
    expect(file).toMatchObject({ name: "block.ssz", kind: "user", bytes: 3 });
    expect(file!.description).toContain(join(root, "block.ssz"));
    expect(folder).toMatchObject({ name: "gossip", kind: "user", bytes: 4 });
    // Sorted by path, hidden files and empty ones left out (and counted).
    expect(folder!.items.map((i) => [...i])).toEqual([[7, 8], [9], [6]]);
    expect(folder!.description).toMatch(/3 files under .*gossip \(1 empty ones left out\)/);
  });

  it("describes a payload by its path as given, so a report names no other folder", () => {
    const root = dir();
    writeFileSync(join(root, "block.ssz"), Uint8Array.of(1, 2, 3));
    const given = relative(process.cwd(), join(root, "block.ssz"));
    const [file] = readUserPayloads([given]);
    expect(file!.description).toBe(`your file ${given}`);
  });

  it.each([
    ["a missing path", (root: string) => join(root, "nope.ssz"), /no such file or folder/],
    [
      "an empty file",
      (root: string) => {
        writeFileSync(join(root, "empty.ssz"), new Uint8Array(0));
        return join(root, "empty.ssz");
      },
      /the file is empty/,
    ],
    [
      "an empty folder",
      (root: string) => {
        mkdirSync(join(root, "none"));
        return join(root, "none");
      },
      /the folder holds no file/,
    ],
    [
      "a folder of empty files",
      (root: string) => {
        mkdirSync(join(root, "zeros"));
        writeFileSync(join(root, "zeros/a"), new Uint8Array(0));
        return join(root, "zeros");
      },
      /every file in it is empty/,
    ],
    ["a device", () => "/dev/null", /neither a file nor a folder/],
  ])("refuses %s, naming the path", (_what, make, message) => {
    const path = make(dir());
    expect(() => readUserPayloads([path])).toThrow(UsageError);
    expect(() => readUserPayloads([path])).toThrow(message);
    expect(() => readUserPayloads([path])).toThrow(`--data ${path}: `);
  });

  it("refuses two paths of one name, and a name a fixture has", () => {
    const [a, b] = [dir(), dir()];
    for (const root of [a, b]) writeFileSync(join(root, "x.bin"), Uint8Array.of(1));
    expect(() => readUserPayloads([join(a, "x.bin"), join(b, "x.bin")])).toThrow(
      /another --data path is also named "x.bin"/,
    );
    writeFileSync(join(a, "beacon-block"), Uint8Array.of(1));
    expect(() => loadPayloadSource(readUserPayloads([join(a, "beacon-block")]))).toThrow(
      /"beacon-block" is the name of a fixture payload/,
    );
  });
});

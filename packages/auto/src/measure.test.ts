import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { randomBytes } from "@snappykit/conformance";
import { getPayload } from "@snappykit/fixtures";
import { createCodec as createNapi } from "@snappykit/napi";
import { createCodec as createTs } from "@snappykit/ts";
import { describe, expect, it } from "vitest";
import { createCodec } from "./index.js";
import { calibrate } from "./measure.js";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const blocks = getPayload("blocks-by-range").items.slice(0, 4);
const sidecars = getPayload("blob-sidecar").items;

describe("calibrate", () => {
  it("times ts against native and writes thresholds createCodec takes as calibrated", async () => {
    const rounds: number[] = [];
    const file = await calibrate({
      ts: await createTs(),
      native: await createNapi(),
      data: { compressible: blocks, incompressible: sidecars, description: "test bytes" },
      sizes: [1024, 8192, 65536],
      rounds: 3,
      batchMs: 0.2,
      command: "test",
      onRound: (done) => rounds.push(done),
    });
    expect(rounds).toEqual([1, 2, 3]);
    for (const op of ["compress", "uncompress"] as const) {
      for (const kind of ["compressible", "incompressible"] as const) {
        const t = file[op][kind];
        expect(t === null || (Number.isSafeInteger(t) && t >= 0)).toBe(true);
      }
    }
    expect(file.provenance).toMatchObject({
      source: "calibrated",
      node: process.version,
      command: "test",
      data: "test bytes",
      backend: expect.stringMatching(/^snappy@7/),
    });
    const codec = await createCodec({ thresholds: file });
    expect(codec.describe()).toMatchObject({
      source: "calibrated",
      thresholds: { compress: file.compress, uncompress: file.uncompress },
    });
  });
});

describe("npx @snappykit/auto calibrate", () => {
  it("calibrates on a folder of the user's own messages", async () => {
    const dir = mkdtempSync(join(tmpdir(), "auto-calibrate-"));
    for (const [i, b] of blocks.entries()) writeFileSync(join(dir, `block-${i}.ssz`), b);
    writeFileSync(join(dir, "random.bin"), randomBytes(200_000, 7));
    const out = join(dir, "thresholds.json");
    const { stdout } = await run(process.execPath, [
      cli,
      "calibrate",
      "--data",
      dir,
      "--out",
      out,
      "--rounds",
      "2",
    ]);
    expect(stdout).toMatch(/^compress: native (never|from \d+ B) \(compressible\)/);
    const file = JSON.parse(readFileSync(out, "utf8"));
    expect(file.provenance.data).toBe(
      `--data ${dir}: 4 compressible and 1 incompressible files, each kind laid end to end`,
    );
    expect((await createCodec({ thresholds: file })).describe().source).toBe("calibrated");
  });

  it("says what is wrong: no command, bytes of one kind only, a backend that is not one", async () => {
    const usage = await run(process.execPath, [cli]).catch((e) => e);
    expect(usage).toMatchObject({
      code: 2,
      stdout: expect.stringContaining("Usage: npx @snappykit/auto calibrate"),
    });
    const dir = mkdtempSync(join(tmpdir(), "auto-calibrate-"));
    writeFileSync(join(dir, "block.ssz"), blocks[0]!);
    const oneKind = await run(process.execPath, [cli, "calibrate", "--data", dir]).catch((e) => e);
    expect(oneKind).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/no incompressible files \(1 files read\)/),
    });
    const module = join(dir, "not-a-codec.mjs");
    writeFileSync(module, "export const nothing = 1;\n");
    const bad = await run(process.execPath, [cli, "calibrate", "--backend", module]).catch(
      (e) => e,
    );
    expect(bad).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("does not export createCodec()"),
    });
  });
});

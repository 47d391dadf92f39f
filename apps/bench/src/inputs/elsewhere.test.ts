import { discoverAdapters, loadAdapters } from "@snappykit/workspace";
import { provideFfiLibrary } from "@snappykit/workspace/ffi-library";
import { afterAll, describe, expect, it } from "vitest";
import { type ElsewhereCodec, loadElsewhere } from "./elsewhere.js";

// The real case: ffi, which the workspace's Node 20 cannot load, started in Node 26, Bun and
// Deno on tools/libsnappy's build (npm run setup makes both).
describe.runIf(Number(process.versions.node.split(".")[0]) < 26)("codecs of other runtimes", () => {
  const started: ElsewhereCodec[] = [];
  afterAll(() => Promise.all(started.map((c) => c.close())));

  it("times ffi in node26, bun and deno, each answering the gate from its runtime", async () => {
    provideFfiLibrary();
    const { failed } = await loadAdapters(discoverAdapters().filter((e) => e.id === "ffi"));
    const { codecs, failed: unloaded } = await loadElsewhere(failed);
    started.push(...codecs);
    expect(unloaded).toEqual([]);
    expect(codecs.map((c) => [c.id, c.elsewhere.runtime])).toEqual([
      ["ffi-node26", "node26"],
      ["ffi-bun", "bun"],
      ["ffi-deno", "deno"],
    ]);
    const text = new TextEncoder().encode("snappy ".repeat(100));
    for (const c of codecs) {
      expect(c.codec.library).toMatch(/node:ffi|bun:ffi|Deno\.dlopen/);
      // cpp's ops, as far as the adapter has them: libsnappy writes past its stream's end,
      // so ffi has no compressInto.
      expect(c.elsewhere.ops).toEqual(["compress", "uncompress", "uncompress-into"]);
      const compressed = await c.elsewhere.gate.compress(text);
      expect(compressed.length).toBeLessThan(text.length);
      expect(await c.elsewhere.gate.uncompress(compressed)).toEqual(text);
      await expect(c.elsewhere.gate.uncompress(Uint8Array.of(5, 0))).rejects.toThrow(
        /rejected the stream/,
      );
      expect(() => c.codec.compress(text)).toThrow(/runs in .*'s processes only/);
    }
  }, 120_000);
});

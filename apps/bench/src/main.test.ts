import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "./main.js";
import type { Io } from "./progress.js";

function capture(): { io: Io; out: () => string; err: () => string } {
  const sink = () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join("") };
  };
  const o = sink();
  const e = sink();
  return { io: { stdout: o.stream, stderr: e.stream }, out: o.text, err: e.text };
}

describe("main", () => {
  it("prints help and exits 0", async () => {
    const c = capture();
    expect(await main(["--help"], c.io)).toBe(0);
    expect(c.out()).toContain("--quick");
  });

  it("exits 2 on a bad flag, pointing to --help", async () => {
    const c = capture();
    expect(await main(["--qiuck"], c.io)).toBe(2);
    expect(c.err()).toMatch(/error: .*--qiuck[\s\S]*see --help/);
  });

  it("exits 2 on an unknown codec and lists the valid ones", async () => {
    const c = capture();
    expect(await main(["--codec", "napi,snapy"], c.io)).toBe(2);
    expect(c.err()).toMatch(/unknown codec "snapy"; valid: .*libsnappy.*napi/);
  });

  it("exits 2 on an unknown payload and lists the valid ones", async () => {
    const c = capture();
    expect(await main(["--payload", "beacon-blok"], c.io)).toBe(2);
    expect(c.err()).toMatch(/unknown payload "beacon-blok"; valid: .*beacon-block.*all/);
  });

  it("exits 2 on an unknown op", async () => {
    const c = capture();
    expect(await main(["--op", "zip"], c.io)).toBe(2);
    expect(c.err()).toMatch(/unknown op "zip"; valid: compress, uncompress/);
  });

  it("rejects a --compare file before any timing", async () => {
    const c = capture();
    const started = performance.now();
    expect(await main(["--compare", "/nonexistent/bench.json"], c.io)).toBe(2);
    expect(c.err()).toMatch(/--compare: cannot read report \/nonexistent\/bench.json/);
    expect(c.err()).not.toContain("gate:");
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it("exits 2 when the selection leaves nothing to time, naming codecs that could", async () => {
    const c = capture();
    expect(await main(["--codec", "ts", "--op", "compress-async"], c.io)).toBe(2);
    expect(c.err()).toMatch(/nothing to time: .*compress-async.*thread-pool API: .*napi/);
  });

  it("exits 2 on --slow-down of a codec the run does not time", async () => {
    const c = capture();
    expect(await main(["--codec", "ts", "--slow-down", "snappyjs=20"], c.io)).toBe(2);
    expect(c.err()).toMatch(/unknown --slow-down codec "snappyjs"/);
  });

  it("lists codecs, payloads with the default set marked, and ops", async () => {
    const c = capture();
    expect(await main(["--list"], c.io)).toBe(0);
    expect(c.out()).toMatch(/codecs:[\s\S]*payloads \(\* = default set\):[\s\S]*\* beacon-block/);
  });
});

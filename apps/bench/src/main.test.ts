import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type Io, main } from "./main.js";

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

  it("lists codecs, payloads with the default set marked, and ops", async () => {
    const c = capture();
    expect(await main(["--list"], c.io)).toBe(0);
    expect(c.out()).toMatch(/codecs:[\s\S]*payloads \(\* = default set\):[\s\S]*\* beacon-block/);
  });
});

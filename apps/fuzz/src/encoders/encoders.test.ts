// The encoder fuzz's inputs are what they claim to be, its judge catches an encoder that
// truncates copy offsets to 16 bits (the Netty 4.2.7 defect), and a quick run of two real
// adapters round-trips everything.
import { createCodec } from "@snappykit/ts";
import { describe, expect, it } from "vitest";
import { buildInput, ENCODER_KINDS, encoderSpecs } from "./inputs.js";
import { judge, streamShape } from "./judge.js";
import { renderEncoderMarkdown, runEncoderFuzz } from "./run.js";

describe("encoder inputs", () => {
  it("cover 32/64/128 Ki and 4 Mi, a few bytes either side, for every kind", () => {
    const specs = encoderSpecs(1);
    const sizes = [...new Set(specs.map((s) => s.size))];
    for (const n of [32768, 65536, 131072, 4194304]) {
      expect(sizes).toContain(n - 1);
      expect(sizes).toContain(n);
      expect(sizes).toContain(n + 1);
    }
    expect(specs).toHaveLength(sizes.length * ENCODER_KINDS.length);
  });

  it("repeat-d inputs repeat at exactly d bytes, and are rebuilt identically from the spec", () => {
    for (const d of [2047, 65536, 65537] as const) {
      const spec = { kind: `repeat-${d}` as const, size: 2 * d + 5, seed: 9 };
      const bytes = buildInput(spec);
      expect(bytes).toHaveLength(spec.size);
      for (let i = d; i < bytes.length; i += 997) expect(bytes[i]).toBe(bytes[i - d]);
      expect(bytes[d - 1]).not.toBe(bytes[d - 2]); // a random period, not a run (for this seed)
      expect(buildInput(spec)).toEqual(bytes);
    }
  });
});

describe("judge", () => {
  it("passes a real encoder and catches one that truncates offsets to 16 bits", async () => {
    const ts = await createCodec();
    const input = buildInput({ kind: "repeat-65537", size: 65537 + 64, seed: 4 });
    expect(judge(ts, input).outcome).toBe("ok");
    // What Netty 4.2.7 does past 64 KiB: the offset's top bits are lost, so the copy points
    // 1 byte back instead of 65,537 — a valid stream that decodes to the wrong bytes.
    const d = 65537;
    const literal = (bytes: Uint8Array) => {
      const n = bytes.length - 1;
      return [62 << 2, n & 0xff, (n >> 8) & 0xff, n >> 16, ...bytes];
    };
    const netty = {
      library: "truncating@0",
      compress: (x: Uint8Array) =>
        Uint8Array.of(
          0xc1,
          0x80,
          0x04,
          ...literal(x.subarray(0, d)),
          (63 << 2) | 2,
          d & 0xff,
          (d >> 8) & 0xff,
        ),
      uncompress: (x: Uint8Array) => ts.uncompress(x),
    };
    expect(streamShape(netty.compress(input))).toEqual({ maxOffset: 1, copy4: 0 });
    const verdict = judge(netty, input);
    expect(verdict.outcome).toBe("wrongBytes");
    expect(verdict.detail).toMatch(/first difference at byte 65537/);
  });
});

describe("quick encoder fuzz", () => {
  it("round-trips every input through ts and snappyjs, adapter and raw", async () => {
    const report = await runEncoderFuzz({ quick: true, codecs: ["ts", "snappyjs"] });
    expect(report.failed).toEqual([]);
    expect(report.rows.map((r) => `${r.id}/${r.target}`).sort()).toEqual([
      "snappyjs/adapter",
      "snappyjs/raw",
      "ts/adapter",
      "ts/raw",
    ]);
    for (const row of report.rows)
      expect(row.counts.ok, `${row.id} ${row.target}`).toBe(report.inputs);
    expect(renderEncoderMarkdown(report)).toContain("| ts (@snappykit/ts@");
    // What it measured, for the docs check: the two adapters and what they and the fuzzer use.
    expect(Object.keys(report.measured?.trees ?? {})).toEqual(
      expect.arrayContaining(["packages/core", "packages/snappyjs", "packages/ts"]),
    );
    expect(Object.keys(report.measured?.trees ?? {})).not.toContain("packages/napi-v1");
  });
});

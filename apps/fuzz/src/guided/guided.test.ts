// The guided fuzzer: its references agree with @snappykit/framing on valid streams and reject
// what the format forbids; the engine finds and minimizes a planted bug; and a short run of
// every real target executes, gains coverage and finds nothing.
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeFramed } from "@snappykit/framing";
import { encodeSszSnappy, MAX_PAYLOAD_SIZE } from "@snappykit/p2p";
import { createCodec } from "@snappykit/ts";
import { describe, expect, it } from "vitest";
import { minimize, startEngine } from "./engine.js";
import { crc32cBitwise, referenceFramed, referenceSsz } from "./reference.js";
import { runGuided } from "./run.js";
import { Finding, type GuidedTarget, pieces } from "./targets.js";

const codec = await createCodec();
const text = new TextEncoder().encode("ssz_snappy reference check ".repeat(300));

describe("references", () => {
  it("CRC-32C of '123456789' is e3069283 (the standard check value)", () => {
    expect(crc32cBitwise(new TextEncoder().encode("123456789")).toString(16)).toBe("e3069283");
  });

  it("decode what @snappykit/framing encodes, and reject a flipped checksum unless told to skip it", () => {
    const framed = encodeFramed(codec, text);
    expect(referenceFramed(framed, true)).toEqual(text);
    const broken = framed.slice();
    broken[14]! ^= 1; // inside the first data chunk's CRC
    expect(() => referenceFramed(broken, true)).toThrow(/checksum/);
    expect(referenceFramed(broken, false)).toEqual(text);
    expect(referenceFramed(new Uint8Array(0), true)).toEqual(new Uint8Array(0));
  });

  it("hold ssz_snappy to its length prefix, bounds and trailing bytes", () => {
    const payload = encodeSszSnappy(codec, text);
    const bounds = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE, verifyChecksums: true };
    expect(referenceSsz(payload, bounds)).toEqual(text);
    expect(() => referenceSsz(payload, { ...bounds, maxSize: text.length - 1 })).toThrow(/bound/);
    expect(() => referenceSsz(Uint8Array.of(...payload, 0), bounds)).toThrow(/trailing/);
    expect(() => referenceSsz(payload.subarray(0, -1), bounds)).toThrow();
    expect(referenceSsz(Uint8Array.of(0), bounds)).toEqual(new Uint8Array(0));
  });

  it("pieces() cuts a stream into slices that join back to it", () => {
    const bytes = encodeFramed(codec, text);
    for (const seed of [0, 1, 5, 77]) {
      const parts = pieces(bytes, seed);
      expect(Buffer.concat(parts)).toEqual(Buffer.from(bytes));
      if (seed !== 0) expect(parts.length).toBeGreaterThan(1);
    }
  });
});

describe("engine", () => {
  it("minimize keeps only the bytes a finding needs", async () => {
    const execute = (input: Uint8Array) => {
      if (input.includes(0x42) && input.includes(0x43)) throw new Finding("planted", "B and C");
    };
    const small = await minimize(execute, Uint8Array.of(1, 2, 0x42, 3, 4, 5, 0x43, 6), "planted");
    expect([...small].sort()).toEqual([0x42, 0x43]);
  });

  it("finds, minimizes and reports a planted bug", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guided-"));
    // A bug behind two comparisons: input[2] = 0x17 and input[5] = 0x29, in inputs over 8 bytes.
    const planted: GuidedTarget = {
      name: "planted",
      description: "test target",
      scope: /guided\.test\.ts/,
      maxLength: 64,
      dictionary: [Uint8Array.of(0x17, 0x29)],
      seeds: async () => [new Uint8Array(12)],
      load: async () => (input) => {
        if (input.length > 8 && input[2] === 0x17 && input[5] === 0x29) {
          throw new Finding("planted", "bytes 2 and 5");
        }
      },
    };
    const fuzz = await startEngine({
      target: planted,
      seed: 3,
      corpusIn: [],
      corpusOut: join(dir, "corpus"),
      findingsOut: join(dir, "findings"),
      current: join(dir, "current.bin"),
    });
    const { findings: found } = await fuzz(Date.now() + 5000);
    expect(found.map((f) => f.kind)).toEqual(["planted"]);
    // Minimized to 9 bytes (the length rule), all zero but the two that matter.
    expect(found[0]!.hex).toBe("000017000029000000");
    expect(readdirSync(join(dir, "findings"))).toHaveLength(1);
  });
});

describe("quick guided run of every target", () => {
  it("runs each target, reaches coverage and finds nothing", async () => {
    const out = mkdtempSync(join(tmpdir(), "guided-run-"));
    const reports = await runGuided({
      seconds: 3,
      jobs: 1,
      corpusDir: new URL("../../corpus", import.meta.url).pathname,
      out,
    });
    expect(reports.map((r) => r.target)).toEqual(["ts-uncompress", "framed", "ssz-snappy"]);
    for (const r of reports) {
      expect(r.findings, r.target).toEqual([]);
      expect(r.execs, r.target).toBeGreaterThan(200);
      expect(r.blocksReached, r.target).toBeGreaterThan(100);
      expect(r.blocksReached, r.target).toBeLessThanOrEqual(r.blocksKnown);
    }
  });
});

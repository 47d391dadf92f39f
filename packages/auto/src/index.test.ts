import { literal, snappyErrorOf } from "@snappykit/conformance";
import { encodeUncompressedLength } from "@snappykit/core";
import { getPayload, payloadNames } from "@snappykit/fixtures";
import { createCodec as createTs } from "@snappykit/ts";
import { describe, expect, it } from "vitest";
import * as browser from "./browser.js";
import { createCodec, provenance, shippedThresholds, thresholdsFromSweep } from "./index.js";
import { createRaw } from "./raw.js";
import { createRaw as createBrowserRaw } from "./raw-browser.js";

const block = getPayload("beacon-block").items[0]!;

describe("@snappykit/auto", () => {
  it("loads native snappy@7 here and says so, with the shipped thresholds", async () => {
    const codec = await createCodec();
    const about = codec.describe();
    expect(about.native).toMatch(/^snappy@7\.\d+\.\d+$/);
    expect(about.ts).toMatch(/^@snappykit\/ts@\d+\.\d+\.\d+$/);
    expect(about.reason).toContain(about.native);
    expect(about.thresholds).toEqual(shippedThresholds);
    expect(about).toMatchObject({ source: "shipped", provenance });
    expect(codec.runtime).toBe("native");
    expect(codec.library).toMatch(
      /^@snappykit\/auto@\d+\.\d+\.\d+ \(@snappykit\/ts@.+ \+ snappy@7/,
    );
  });

  it("ships thresholds with their provenance", () => {
    for (const op of ["compress", "uncompress"] as const) {
      for (const kind of ["compressible", "incompressible"] as const) {
        const t = shippedThresholds[op][kind];
        expect(t === null || (Number.isSafeInteger(t) && t >= 0)).toBe(true);
      }
    }
    expect(provenance.commit).toMatch(/^[0-9a-f]{40}/);
    expect(provenance.node).toMatch(/^v\d+/);
    expect(Date.parse(provenance.date)).not.toBeNaN();
    expect(provenance.machine).not.toBe("");
    expect(provenance.command).toContain("pnpm");
    expect(provenance.generatedBy).toContain("run thresholds");
    expect(provenance.source).toBe("shipped");
  });

  it("takes a calibration's thresholds file as it is, and says it is calibrated, where and when", async () => {
    const calibration = thresholdsFromSweep(
      {
        command: "pnpm bench --calibrate",
        environment: {
          commit: "abc",
          date: "2026-12-01T12:00:00.000Z",
          cpu: "Test CPU",
          cores: 4,
          os: "Linux 6",
          arch: "x64",
          memoryGiB: 8,
          runtime: { name: "node26", version: "26.10.0" },
        },
        series: ["blocks", "sidecars"].map((name) => ({
          name,
          ratio: 1,
          points: [],
          crossover: [
            { op: "compress", codecs: ["ts", "napi"], size: 3000 },
            { op: "uncompress", codecs: ["ts", "napi"], size: 9000 },
          ],
        })),
      },
      "pnpm bench --calibrate",
      "calibrated",
    );
    // Through JSON, as a file on disk would be read.
    const codec = await createCodec({ thresholds: JSON.parse(JSON.stringify(calibration)) });
    const about = codec.describe();
    expect(about.source).toBe("calibrated");
    expect(about.provenance).toMatchObject({
      source: "calibrated",
      node: "v26.10.0",
      machine: "Test CPU ×4, Linux 6 x64, 8 GiB",
      date: "2026-12-01T12:00:00.000Z",
    });
    expect(about.thresholds.compress).toEqual({ compressible: 3000, incompressible: 3000 });
    expect(codec.backendFor("uncompress", 8999)).toBe("ts");
    expect(codec.backendFor("uncompress", 9000)).toBe("napi");
    // Sizes given by hand, without a provenance, are custom.
    expect((await createCodec({ thresholds: { compress: 5 } })).describe().source).toBe("custom");
    const bad = await createCodec({ thresholds: { provenance: { node: 26 } as never } }).catch(
      (e) => e,
    );
    expect(bad).toMatchObject({ code: "INVALID_ARGUMENT", message: /provenance must say node/ });
  });

  it("routes by size, op and kind, as the thresholds say", async () => {
    const codec = await createCodec({
      thresholds: { compress: 1000, uncompress: { compressible: 5000, incompressible: 50_000 } },
    });
    expect(codec.describe().thresholds).toEqual({
      compress: { compressible: 1000, incompressible: 1000 },
      uncompress: { compressible: 5000, incompressible: 50_000 },
    });
    expect(codec.backendFor("compress", 999)).toBe("ts");
    expect(codec.backendFor("compress", 1000, "incompressible")).toBe("napi");
    expect(codec.backendFor("uncompress", 4999)).toBe("ts");
    expect(codec.backendFor("uncompress", 5000)).toBe("napi");
    expect(codec.backendFor("uncompress", 49_999, "incompressible")).toBe("ts");
    expect(codec.backendFor("uncompress", 50_000, "incompressible")).toBe("napi");
    const never = await createCodec({ thresholds: { compress: null } });
    expect(never.backendFor("compress", 2 ** 31)).toBe("ts");
    expect(never.describe().thresholds.uncompress).toEqual(shippedThresholds.uncompress);
    const one = await createCodec({ thresholds: { compress: { incompressible: 7 } } });
    expect(one.describe().thresholds.compress).toEqual({
      ...shippedThresholds.compress,
      incompressible: 7,
    });
  });

  it("judges each call's kind: sampled bytes for compress, the stream's ratio for uncompress", async () => {
    const t = { compressible: 1000, incompressible: 100_000 };
    const codec = await createCodec({ thresholds: { compress: t, uncompress: t } });
    let x = 2_463_534_242; // xorshift32: bytes with no structure at all
    const random = Uint8Array.from({ length: 20_000 }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x >>> 24;
    });
    const blob = getPayload("blob-sidecar").items[0]!.subarray(0, 20_000);
    const blockPart = block.subarray(0, 20_000);
    expect(codec.explain("compress", blockPart)).toEqual({
      backend: "napi",
      size: 20_000,
      kind: "compressible",
      threshold: 1000,
    });
    expect(codec.explain("compress", blob)).toMatchObject({
      backend: "ts",
      kind: "incompressible",
    });
    expect(codec.explain("compress", random)).toMatchObject({ kind: "incompressible" });
    expect(codec.explain("compress", new Uint8Array(20_000))).toMatchObject({
      kind: "compressible",
    });
    const wire = (bytes: Uint8Array) => codec.compress(bytes);
    expect(codec.explain("uncompress", wire(blockPart))).toMatchObject({
      backend: "napi",
      size: 20_000,
      kind: "compressible",
    });
    expect(codec.explain("uncompress", wire(blob))).toEqual({
      backend: "ts",
      size: 20_000,
      kind: "incompressible",
      threshold: 100_000,
    });
    expect(codec.describe().kinds.uncompress).toMatch(/4\/5/);
  });

  it("judges the kind of real payloads, and of message prefixes at sizes in the compress band", async () => {
    const codec = await createCodec();
    // Every item, and prefixes of each payload's first item where that is a whole message
    // (the 32k-chunks payloads are slices; some block slices really are incompressible).
    const kinds = (names: string[]) =>
      new Set(
        names.flatMap((name) =>
          getPayload(name).items.flatMap((item, i) =>
            [
              item.length,
              ...(i === 0 && !name.endsWith("chunks") ? [5120, 6144, 8192, 12_288] : []),
            ]
              .filter((n) => n <= item.length)
              .map((n) => codec.explain("compress", item.subarray(0, n)).kind),
          ),
        ),
      );
    expect(kinds(["blob-sidecar", "data-column-sidecar", "columns-32k-chunks"])).toEqual(
      new Set(["incompressible"]),
    );
    expect(kinds(["beacon-block", "blocks-by-range", "blocks-32k-chunks"])).toEqual(
      new Set(["compressible"]),
    );
  });

  it("sends each kind where explain says, for both ops (told apart by snappy@7's errors)", async () => {
    const t = { compressible: 1000, incompressible: 100_000 };
    const codec = await createCodec({ thresholds: { uncompress: t } });
    // 20,000 declared bytes, both bodies corrupt (a copy from offset 0 at the end), so the
    // error says which backend ran: a 19,980-byte literal (kind incompressible → ts), and a
    // 4-byte literal repeated by 312 64-byte copies (compressible → napi).
    const head = [0xa0, 0x9c, 0x01];
    const bad = [(15 << 2) | 2, 0, 0]; // copy 16 bytes from offset 0
    const n = 19_980 - 1;
    const long = Uint8Array.from([
      ...head,
      61 << 2,
      n & 255,
      n >> 8,
      ...new Array(19_980).fill(1),
      ...bad,
    ]);
    const copies = new Array(312).fill([(63 << 2) | 2, 4, 0]).flat();
    const short = Uint8Array.from([...head, 3 << 2, 1, 2, 3, 4, ...copies, ...bad]);
    expect(codec.explain("uncompress", long)).toMatchObject({ size: 20_000, backend: "ts" });
    expect(codec.explain("uncompress", short)).toMatchObject({ size: 20_000, backend: "napi" });
    expect(snappyErrorOf(() => codec.uncompress(long)).message).not.toMatch(/^snappy@7/);
    expect(snappyErrorOf(() => codec.uncompress(short)).message).toMatch(/^snappy@7/);
  });

  it("really sends a call to the backend it names (told apart by their error messages)", async () => {
    // A valid preamble (100 bytes) over a body that cannot produce them.
    const corrupt = Uint8Array.of(100, 0x0c, 1, 2, 3, 4, ...new Array(10).fill(0));
    const toNative = await createCodec({ thresholds: { uncompress: 0 } });
    const toTs = await createCodec({ thresholds: { uncompress: null } });
    expect(snappyErrorOf(() => toNative.uncompress(corrupt)).message).toMatch(/^snappy@7/);
    expect(snappyErrorOf(() => toTs.uncompress(corrupt)).message).not.toMatch(/snappy@7/);
  });

  it("routes uncompress by the length the stream declares, whatever its varint width", async () => {
    // A literal of `declared - 4` bytes, then a copy with offset 0: invalid, and each
    // backend says so in its own words.
    const corrupt = (declared: number) => {
      const head = encodeUncompressedLength(declared);
      const body = literal(new Uint8Array(declared - 4));
      return Uint8Array.from([...head, ...body, 0x01, 0x00]);
    };
    for (const at of [64, 128, 16_384, 2_097_152]) {
      const codec = await createCodec({ thresholds: { uncompress: at } });
      expect(snappyErrorOf(() => codec.uncompress(corrupt(at))).message).toMatch(/^snappy@7/);
      expect(snappyErrorOf(() => codec.uncompress(corrupt(at - 1))).message).not.toMatch(
        /snappy@7/,
      );
    }
  });

  it("writes the same bytes whichever backend compresses (both follow libsnappy 1.1.7)", async () => {
    const native = await createCodec({ thresholds: { compress: 0 } });
    const ts = await createCodec({ thresholds: { compress: null } });
    for (const name of payloadNames) {
      for (const item of getPayload(name).items.slice(0, 2)) {
        expect(native.compress(item)).toEqual(ts.compress(item));
      }
    }
  });

  it("falls back to ts for every call when native is off, and says why", async () => {
    const codec = await createCodec({ native: false });
    const about = codec.describe();
    expect(about.native).toBeNull();
    expect(about.reason).toMatch(/native disabled/);
    const never = { compressible: null, incompressible: null };
    expect(about.thresholds).toEqual({ compress: never, uncompress: never });
    expect(codec.backendFor("uncompress", 2 ** 30)).toBe("ts");
    expect(codec.runtime).toBe((await createTs()).runtime); // ts: its kernel's wasm, or js
    expect(codec.compressAsync).toBeUndefined();
    expect(codec.uncompress(codec.compress(block))).toEqual(block);
  });

  it("the browser entry never loads native code", async () => {
    const codec = await browser.createCodec();
    expect(codec.describe().native).toBeNull();
    expect(codec.describe().reason).toMatch(/browser/);
    expect(codec.uncompress(codec.compress(block))).toEqual(block);
    const raw = await createBrowserRaw();
    expect(raw.uncompress(raw.compress(block))).toEqual(block);
  });

  it("sends into-calls to ts when native cannot write into caller memory, and says so", async () => {
    const codec = await createCodec({ thresholds: { compress: 0, uncompress: 0 } });
    expect(codec.describe().into).toEqual({ compressInto: "ts", uncompressInto: "ts" });
    expect(codec.explain("compress", block).backend).toBe("napi");
    expect(codec.explain("compressInto", block).backend).toBe("ts");
    expect(codec.backendFor("uncompressInto", 1e6)).toBe("ts");
    // ts's own functions, not a wrapper that checks the input a second time per call.
    const ts = await createTs();
    expect(codec.compressInto).toBe(ts.compressInto);
    expect(codec.uncompressInto).toBe(ts.uncompressInto);
    // Required members, no `!`: the type says what the README does.
    const out = new Uint8Array(codec.maxCompressedLength(block.length));
    const wire = out.subarray(0, codec.compressInto(block, out));
    const back = new Uint8Array(codec.uncompressedLength(wire));
    expect(back.subarray(0, codec.uncompressInto(wire, back))).toEqual(block);
  });

  it("takes a codec of its own in napi's place once it passes conformance, into-calls too", async () => {
    const ts = await createTs();
    const calls: string[] = [];
    const counted = <F extends (...args: never[]) => unknown>(name: string, f: F) =>
      ((...args: Parameters<F>) => {
        calls.push(name);
        return f(...args);
      }) as F;
    const mine = {
      ...ts,
      name: "mine",
      library: "my-ffi-snappy@1.0.0",
      compressInto: counted("compressInto", ts.compressInto!),
      uncompressInto: counted("uncompressInto", ts.uncompressInto!),
    };
    const codec = await createCodec({
      native: mine,
      thresholds: { compress: 4096, uncompress: 0 },
    });
    const about = codec.describe();
    expect(about).toMatchObject({ native: "my-ffi-snappy@1.0.0", nativeName: "mine" });
    expect(about.into).toEqual({ compressInto: "routed", uncompressInto: "routed" });
    expect(about.reason).toMatch(/passed all \d+ conformance checks.*same bytes as ts/);
    expect(codec.explain("compressInto", block).backend).toBe("mine");
    expect(codec.backendFor("compressInto", 100)).toBe("ts");
    calls.length = 0;
    const out = new Uint8Array(codec.maxCompressedLength(block.length));
    const wire = out.slice(0, codec.compressInto(block, out));
    codec.compressInto(block.subarray(0, 100), out);
    const back = new Uint8Array(block.length);
    codec.uncompressInto(wire, back);
    expect(back).toEqual(block);
    expect(calls).toEqual(["compressInto", "uncompressInto"]);
  });

  it("refuses a codec of its own that fails a conformance check, naming it", async () => {
    const ts = await createTs();
    const broken = {
      ...ts,
      name: "broken",
      library: "broken-snappy@1.0.0",
      // Accepts a stream the format forbids: a copy before the start of the output.
      uncompress: (input: Uint8Array) => {
        try {
          return ts.uncompress(input);
        } catch {
          return new Uint8Array(0);
        }
      },
    };
    for (const create of [createCodec, browser.createCodec]) {
      const error = await create({ native: broken }).catch((e) => e);
      expect(error).toMatchObject({ name: "SnappyError", code: "INVALID_ARGUMENT" });
      expect(error.message).toMatch(
        /^native: broken-snappy@1\.0\.0 failed \d+ of \d+ conformance checks/,
      );
    }
    const error = await createCodec({ native: 1 as never }).catch((e) => e);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("rejects thresholds that are not sizes", async () => {
    for (const bad of [-1, 1.5, Number.NaN, "100"]) {
      for (const create of [createCodec, browser.createCodec]) {
        const error = await create({ thresholds: { compress: bad as number } }).catch((e) => e);
        expect(error).toMatchObject({ name: "SnappyError", code: "INVALID_ARGUMENT" });
      }
    }
  });

  it("rejects options it does not know and arguments that are not what they say", async () => {
    for (const create of [createCodec, browser.createCodec]) {
      for (const bad of [
        { threshold: { compress: 10 } },
        { thresholds: { compres: 10 } },
        { thresholds: { compress: { compressable: 10 } } },
        10,
      ]) {
        const error = await create(bad as never).catch((e) => e);
        expect(error, JSON.stringify(bad)).toMatchObject({ code: "INVALID_ARGUMENT" });
      }
    }
    const codec = await createCodec();
    const bytes = new Uint8Array(100);
    for (const call of [
      () => codec.explain("compress", null as never),
      () => codec.explain("uncompress", "abc" as never),
      () => codec.explain("decompress" as never, bytes),
      () => codec.backendFor("compres" as never, 10),
      () => codec.backendFor("compress", 10, "random" as never),
      () => codec.uncompress(codec.compress(bytes), 10 as never),
      () => codec.uncompress(codec.compress(bytes), { maxlength: 10 } as never),
    ]) {
      expect(call).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });

  it("createRaw routes the unguarded backends the same way", async () => {
    const raw = await createRaw({ thresholds: { compress: 0, uncompress: 0 } });
    expect(raw.library).toMatch(/snappy@7/);
    expect(Uint8Array.from(raw.uncompress(raw.compress(block)))).toEqual(Uint8Array.from(block));
  });
});

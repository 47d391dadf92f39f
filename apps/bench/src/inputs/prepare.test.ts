import { discoverAdapters, type LoadedAdapter, loadAdapters } from "@snappykit/workspace";
import { beforeAll, describe, expect, it } from "vitest";
import type { Target } from "../model/case.js";
import { adapterTarget, rawTarget } from "./cases.js";
import { chooseReference, GateError, prepareInputs } from "./prepare.js";
import { syntheticPayloads } from "./synthetic.js";

// Real backends from the workspace: Google's libsnappy as the reference, snappyjs as a
// second codec with different encoder heuristics.
let adapters: LoadedAdapter[];
let reference: Target;
beforeAll(async () => {
  const wanted = discoverAdapters().filter((e) => ["libsnappy", "snappyjs"].includes(e.id));
  const { loaded, failed } = await loadAdapters(wanted);
  expect(failed).toEqual([]);
  adapters = loaded;
  reference = adapterTarget("libsnappy", loaded.find((l) => l.id === "libsnappy")!.codec);
});

const payloads = syntheticPayloads();

/** A codec that wraps the reference and damages one direction's output. */
function broken(which: "compress" | "uncompress"): Target {
  const ref = reference.backend;
  const flipLast = (bytes: Uint8Array) => {
    const out = Uint8Array.from(bytes);
    out[out.length - 1]! ^= 0x01;
    return out;
  };
  return {
    codec: "broken",
    impl: "adapter",
    library: "broken@0",
    backend: {
      compress: (input) =>
        which === "compress" ? flipLast(ref.compress(input)) : ref.compress(input),
      uncompress: (input) =>
        which === "uncompress" ? flipLast(ref.uncompress(input)) : ref.uncompress(input),
    },
  };
}

describe("prepareInputs", () => {
  it("passes real codecs and records every encoder's size", async () => {
    const targets = adapters.flatMap((a) => [adapterTarget(a.id, a.codec), rawTarget(a.id, a.raw)]);
    const result = await prepareInputs(reference, targets, payloads);
    expect(result.reference).toBe("libsnappy");
    expect(result.prepared.map((p) => p.payload.name)).toEqual(payloads.map((p) => p.name));
    expect(result.sizes).toHaveLength(2 * payloads.length); // adapters only, not raw
    const block = result.sizes.find(
      (s) => s.codec === "libsnappy" && s.payload === "synthetic-block",
    )!;
    expect(block.ratio).toBeGreaterThan(1.2);
    expect(result.checks).toBeGreaterThan(0);
  });

  it("aborts when a codec's compressed output does not decode to the input", async () => {
    const run = prepareInputs(
      reference,
      [adapterTarget("snappyjs", adapters[1]!.codec), broken("compress")],
      payloads,
    );
    await expect(run).rejects.toBeInstanceOf(GateError);
    await expect(run).rejects.toMatchObject({
      codec: "broken",
      payload: payloads[0]!.name,
      direction: "broken.compress → libsnappy.uncompress",
    });
    await expect(run).rejects.toThrow(/codec "broken", payload "synthetic-small" item 0/);
  });

  it("aborts when a codec decodes the reference's output to other bytes", async () => {
    const run = prepareInputs(reference, [broken("uncompress")], payloads);
    await expect(run).rejects.toMatchObject({
      codec: "broken",
      direction: "libsnappy.compress → broken.uncompress",
    });
    await expect(run).rejects.toThrow(/bytes differ at offset \d+/);
  });

  it("names the payload and item where the mismatch appears", async () => {
    // Corrupt only the chunked payload's fourth item.
    const ref = reference.backend;
    const picky: Target = {
      codec: "picky",
      impl: "adapter",
      library: "picky@0",
      backend: {
        compress: (input) => ref.compress(input),
        uncompress: (input) => {
          const out = ref.uncompress(input);
          const target = payloads[3]!.items[3]!;
          const same = out.length === target.length && out.every((b, i) => b === target[i]);
          return same ? out.subarray(1) : out;
        },
      },
    };
    await expect(prepareInputs(reference, [picky], payloads)).rejects.toMatchObject({
      payload: "synthetic-chunks",
      item: 3,
      detail: expect.stringMatching(/length/),
    });
  });
});

describe("chooseReference", () => {
  it("prefers libsnappy, then napi, and honours an explicit choice", () => {
    const t = (codec: string): Target => ({ ...reference, codec });
    expect(chooseReference([t("napi"), t("libsnappy")]).codec).toBe("libsnappy");
    expect(chooseReference([t("snappyjs"), t("napi")]).codec).toBe("napi");
    expect(chooseReference([t("napi"), t("ts")], "ts").codec).toBe("ts");
    expect(() => chooseReference([t("snappyjs")])).toThrow(
      "no reference codec: needs libsnappy or napi, loaded: snappyjs",
    );
  });
});

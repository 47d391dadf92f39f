import type { AdapterModule, RawBackend, RawModule, SnappyCodec } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import type { LoadedAdapter } from "./index.js";
import { adapterTargets, openTarget } from "./targets.js";

const codec = (name: string) => ({ name, library: `${name}@1` }) as unknown as SnappyCodec;
const raw = { library: "lib@1" } as unknown as RawBackend;
const adapter = (id: string, variants: string[] = []) =>
  ({
    id,
    packageName: `@snappykit/${id}`,
    entry: `/packages/${id}/dist/index.js`,
    rawEntry: `/packages/${id}/dist/raw.js`,
    codec: codec(id),
    raw,
    variants: variants.map(codec),
  }) as unknown as LoadedAdapter;

describe("adapterTargets", () => {
  it("lists each adapter's codec, its variants, then its raw library", () => {
    const targets = adapterTargets([adapter("napi", ["napi-copy"]), adapter("ts")]);
    expect(targets.map((t) => `${t.id}:${t.impl}:${t.adapter}`)).toEqual([
      "napi:adapter:napi",
      "napi-copy:adapter:napi",
      "napi:raw:napi",
      "ts:adapter:ts",
      "ts:raw:ts",
    ]);
    expect(targets[1]).toMatchObject({
      variant: "napi-copy",
      entry: "/packages/napi/dist/index.js",
    });
    expect(targets[0]).not.toHaveProperty("variant");
    expect(targets[2]).toMatchObject({ impl: "raw", entry: "/packages/napi/dist/raw.js" });
  });

  it("leaves the raw libraries out when asked", () => {
    expect(
      adapterTargets([adapter("napi", ["napi-copy"])], { raw: false }).map((t) => t.id),
    ).toEqual(["napi", "napi-copy"]);
  });
});

describe("openTarget", () => {
  // A main entry and a ./raw entry in one object: openTarget takes either.
  const mod: AdapterModule & RawModule = {
    createCodec: async () => codec("napi"),
    createRaw: async () => raw,
    createVariants: async () => [codec("napi-copy")],
  };

  it("builds the codec, a variant or the raw library a child is asked for", async () => {
    expect((await openTarget(mod, { impl: "adapter" }, "napi")).name).toBe("napi");
    expect((await openTarget(mod, { impl: "adapter", variant: "napi-copy" }, "napi")).name).toBe(
      "napi-copy",
    );
    expect(await openTarget(mod, { impl: "raw" }, "napi")).toBe(raw);
  });

  it("names the module and what it lacks", async () => {
    await expect(openTarget(mod, { impl: "adapter", variant: "x" }, "m.js")).rejects.toThrow(
      'm.js has no variant "x"',
    );
    await expect(openTarget({}, { impl: "raw" }, "m.js")).rejects.toThrow(
      "m.js does not export createRaw",
    );
  });
});

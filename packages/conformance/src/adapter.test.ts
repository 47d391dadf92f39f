// Self-tests of the adapter-module checks: names, versions, variants and the raw backend.
import type { SnappyCodec } from "@snappykit/core";
import { describe, expect, it } from "vitest";
import { codecsOf, loadModule, onEveryCodec } from "./adapter.js";
import { conformanceChecks } from "./checks.js";
import { moduleFailures, reference, referenceModule } from "./test/reference.js";

describe("the adapter module checks", () => {
  it("pass a correct module", async () => {
    expect(await moduleFailures(referenceModule)).toEqual([]);
  });

  it("fail a module without createRaw on its ./raw entry, or with it on its main entry", async () => {
    const { createRaw, ...main } = referenceModule;
    await expect(moduleFailures(main)).rejects.toThrow(
      /the \.\/raw entry does not export createRaw/,
    );
    await expect(loadModule(referenceModule, { createRaw })).rejects.toThrow(
      /the main entry exports createRaw/,
    );
  });

  it("fail a codec named other than its folder", async () => {
    expect(await moduleFailures(referenceModule, "refrence")).toEqual([
      expect.stringMatching(/^adapter module: the codec's name is the package folder's id: /),
    ]);
  });

  it("fail a codec naming another version than the one installed", async () => {
    const stale = {
      ...referenceModule,
      createCodec: async () => ({ ...reference, library: "literal-only@0.9.0" }),
    };
    const failed = await moduleFailures(stale);
    expect(failed).toContainEqual(
      expect.stringMatching(
        /names the version of the backend package it loaded: .*literal-only@1\.0\.0 is what is installed/,
      ),
    );
  });

  it("fail variants that are misnamed, repeated or another library", async () => {
    const variants = (list: Partial<SnappyCodec>[]) => ({
      ...referenceModule,
      createVariants: async () => list.map((v) => ({ ...reference, ...v })),
    });
    const check =
      "adapter module: variants: each named <id>-<setting>, distinct, same library and runtime";
    for (const bad of [
      [{ name: "copy" }],
      [{ name: "reference-copy" }, { name: "reference-copy" }],
      [{ name: "reference-copy", library: "other@1.0.0" }],
    ]) {
      expect((await moduleFailures(variants(bad))).map((f) => f.slice(0, check.length))).toEqual([
        check,
      ]);
    }
  });

  it("run every codec check on each variant too, naming the variant that fails", async () => {
    const shared = new Uint8Array(1 << 16);
    const aliasing: SnappyCodec = {
      ...reference,
      name: "reference-pooled",
      uncompress: (input, options) => {
        const out = reference.uncompress(input, options);
        if (out.length > shared.length) return out;
        shared.set(out);
        return shared.subarray(0, out.length);
      },
    };
    const { createRaw, ...main } = referenceModule;
    const loaded = await loadModule(
      { ...main, createVariants: async () => [aliasing] },
      { createRaw },
    );
    const ownership = conformanceChecks().find((c) => c.name.startsWith("results are fresh"))!;
    await expect(onEveryCodec(ownership, codecsOf(loaded))).rejects.toThrow(/^reference-pooled: /);
    await expect(onEveryCodec(ownership, [reference])).resolves.toBeUndefined();
  });

  it("fail a raw backend that writes a private format or names another library", async () => {
    const identity = {
      ...referenceModule,
      createRaw: async () => ({
        library: reference.library,
        compress: (x: Uint8Array) => x.slice(),
        uncompress: (x: Uint8Array) => x.slice(),
      }),
    };
    const renamed = {
      ...referenceModule,
      createRaw: async () => ({
        ...(await referenceModule.createRaw()),
        library: "literal-only@2.0.0",
      }),
    };
    const check =
      "adapter module: createRaw: names the same library, writes Snappy and reads it back";
    for (const bad of [identity, renamed]) {
      expect((await moduleFailures(bad)).map((f) => f.slice(0, check.length))).toEqual([check]);
    }
  });
});

import type { SnappyCodec } from "@snappykit/core";
import { createCodec } from "@snappykit/ts";
import { createRaw } from "@snappykit/ts/raw";
import { describe, expect, it } from "vitest";
import { runTarget } from "./portable.js";
import { expectedCannotLoad, report } from "./report.js";

const target = { id: "ts", module: "@snappykit/ts", raw: "@snappykit/ts/raw" };
const run = (codec: () => Promise<SnappyCodec>, variants?: () => Promise<SnappyCodec[]>) =>
  runTarget(
    target,
    async (specifier) =>
      specifier === target.raw ? { createRaw } : { createCodec: codec, createVariants: variants },
    [],
  );

describe("runTarget", () => {
  it("passes a conforming codec on every check", async () => {
    const result = await run(createCodec);
    expect(result).toMatchObject({ status: "pass", failures: [] });
  });

  it("fails a codec that writes bad bytes, naming each failed check", async () => {
    const broken = async () => {
      const codec = await createCodec();
      return { ...codec, compress: (input: Uint8Array) => codec.compress(input).reverse() };
    };
    const result = await run(broken);
    expect(result.status).toBe("fail");
    expect(result.status === "fail" && result.failures).toContainEqual(
      expect.stringMatching(/^round trip › 64 KiB random: /),
    );
  });

  it("runs every check on each variant too, naming the variant that fails", async () => {
    const reversing = async () => {
      const codec = await createCodec();
      const compress = (input: Uint8Array) => codec.compress(input).reverse();
      return [{ ...codec, name: "ts-reversed", compress }];
    };
    const result = await run(createCodec, reversing);
    expect(result.status === "fail" && result.failures).toContainEqual(
      expect.stringMatching(/^round trip › 64 KiB random: ts-reversed: /),
    );
  });

  it("reports an import or createCodec error as cannot load, with the reason", async () => {
    const result = await run(() => Promise.reject(new Error("no such addon")));
    expect(result).toEqual({ id: "ts", status: "cannot load", reason: "no such addon" });
  });
});

describe("expectedCannotLoad", () => {
  it("takes each adapter's declared reasons, and a Node line's addon that did not build", () => {
    const adapters: Parameters<typeof expectedCannotLoad>[0] = [
      {
        id: "libsnappy",
        cannotLoad: { bun: "NAN addon" },
        dependencies: ["@snappykit/core", "snappy"],
      },
      { id: "ts", cannotLoad: {}, dependencies: ["@snappykit/core"] },
    ];
    const failed = (line: string, dependency: string) =>
      line === "node26" && dependency === "snappy"
        ? "snappy@6.3.5 did not build for Node v26"
        : undefined;
    expect(expectedCannotLoad(adapters, ["node24", "node26"], failed)).toEqual({
      bun: { libsnappy: "NAN addon" },
      node26: { libsnappy: "snappy@6.3.5 did not build for Node v26" },
    });
  });
});

describe("report", () => {
  const expected = { bun: { napi: "native" } };
  const problems = (results: Parameters<typeof report>[1]["results"]) =>
    report("bun", { runtime: "bun 1", results }, expected, () => {});
  const pass = { status: "pass", library: "x@1", checks: 1, failures: [] } as const;

  it("is green when everything loads and passes, or cannot load as expected", () => {
    const napi = { id: "napi", status: "cannot load", reason: "r" } as const;
    expect(problems([{ id: "ts", ...pass }, napi])).toEqual([]);
  });

  it("fails on a failed check, an unexpected cannot-load, and an expected one that loads", () => {
    const fail = { id: "ts", ...pass, status: "fail", failures: ["x"] } as const;
    const unexpected = { id: "hysnappy", status: "cannot load", reason: "r" } as const;
    expect(problems([fail, unexpected, { id: "napi", ...pass }])).toEqual([
      "bun: ts fails 1 checks",
      "bun: hysnappy cannot load (r)",
      "bun: napi loads; drop bun from its package.json's snappykit.cannotLoad",
    ]);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compress, createCodec, createRaw, library, uncompress } from "./index.js";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("adapter", () => {
  it("describes itself by the contract", async () => {
    const codec = await createCodec();
    expect(codec.contractVersion).toBe(1);
    expect(codec.name).toBe("ts");
    expect(codec.runtime).toBe("js");
    expect(codec.library).toBe(`@snappykit/ts@${pkg.version}`);
    expect(library).toBe(codec.library);
  });

  it("exposes the bare functions as the raw backend", async () => {
    const raw = await createRaw();
    expect(raw.compress).toBe(compress);
    expect(raw.uncompress).toBe(uncompress);
    const input = new TextEncoder().encode("snappy snappy snappy snappy snappy");
    expect(new TextDecoder().decode(raw.uncompress(raw.compress(input)))).toBe(
      "snappy snappy snappy snappy snappy",
    );
  });
});

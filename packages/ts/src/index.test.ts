import { describe, expect, it } from "vitest";
import { compress, createCodec, library, uncompress } from "./index.js";
import { createRaw } from "./raw.js";

describe("adapter", () => {
  it("exports the library it names", async () => {
    expect(library).toBe((await createCodec()).library);
  });

  it("exposes the bare functions as the raw backend", async () => {
    const raw = await createRaw();
    expect(raw.compress).toBe(compress);
    expect(raw.uncompress).toBe(uncompress);
  });
});

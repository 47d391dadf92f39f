// The decoder's copy table against the format's own description of each tag (§2.2.1,
// §2.2.2). A wrong entry still decodes right, since the fast path sends a tag it cannot read
// (entry 0) to the checked code, so only this test sees one.
import { describe, expect, it } from "vitest";
import { copyTable, TAG_COPY1, TAG_COPY2 } from "./tags.js";

// Built inside each test, so that a mutation testing run (StrykerJS) counts the table's
// code as covered by these tests, not only by the module loads that build it.
describe("copyTable", () => {
  it("has an entry for every tag byte", () => {
    expect(copyTable()).toHaveLength(256);
  });

  it("gives copy-1 its length 4..11, the offset's top 3 bits in place and a 1-byte mask", () => {
    const table = copyTable();
    for (let tag = 0; tag < 256; tag++) {
      if ((tag & 3) !== TAG_COPY1) continue;
      const entry = table[tag]!;
      expect(entry & 0x7f, `tag ${tag}`).toBe(4 + ((tag >>> 2) & 7));
      expect(entry & 0x700, `tag ${tag}`).toBe((tag >>> 5) << 8);
      expect((entry >>> 12) & 1, `tag ${tag}`).toBe(0);
      expect(entry >>> 16, `tag ${tag}`).toBe(0xff);
    }
  });

  it("gives copy-2 its length 1..64, one more offset byte and a 2-byte mask", () => {
    const table = copyTable();
    for (let tag = 0; tag < 256; tag++) {
      if ((tag & 3) !== TAG_COPY2) continue;
      const entry = table[tag]!;
      expect(entry & 0x7f, `tag ${tag}`).toBe((tag >>> 2) + 1);
      expect(entry & 0x700, `tag ${tag}`).toBe(0);
      expect((entry >>> 12) & 1, `tag ${tag}`).toBe(1);
      expect(entry >>> 16, `tag ${tag}`).toBe(0xffff);
    }
  });

  it("leaves literals and copy-4 at 0, which the fast path hands to the checked code", () => {
    const table = copyTable();
    for (let tag = 0; tag < 256; tag++) {
      if ((tag & 3) === TAG_COPY1 || (tag & 3) === TAG_COPY2) continue;
      expect(table[tag], `tag ${tag}`).toBe(0);
    }
  });
});

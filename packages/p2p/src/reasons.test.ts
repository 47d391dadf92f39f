import { readFileSync } from "node:fs";
import { encodeUncompressedLength, REASONS, SnappyError } from "@snappykit/core";
import { STREAM_IDENTIFIER } from "@snappykit/framing";
import { describe, expect, it } from "vitest";
import { decodeSszSnappy, encodeSszSnappy, P2P_REASONS } from "./index.js";
import { chunk, codecs } from "./test/helpers.js";

const codec = codecs[0]!;
const hex = (h: string) =>
  Uint8Array.from(h.replace(/ /g, "").match(/../g)!, (x) => parseInt(x, 16));
const ssz = encodeSszSnappy(codec, new Uint8Array(1000));
const any = { minSize: 0, maxSize: 2000 };

/** One hostile input per reason of ssz_snappy, and the one of core's only bounds produce. */
const HOSTILE: Record<string, () => unknown> = {
  "length-under-minimum": () => decodeSszSnappy(codec, ssz, { minSize: 2000, maxSize: 3000 }),
  "prefix-overlong": () => decodeSszSnappy(codec, hex("ff".repeat(11)), any),
  "non-minimal-prefix": () => decodeSszSnappy(codec, hex("d4 00"), any),
  // n = 1 allows max_compressed_len(1) = 33 framed bytes; a 40-byte padding chunk is more.
  "read-budget-exceeded": () =>
    decodeSszSnappy(
      codec,
      Uint8Array.of(
        ...encodeUncompressedLength(1),
        ...STREAM_IDENTIFIER,
        ...chunk(0xfe, Array(40).fill(0)),
      ),
      any,
    ),
  "trailing-bytes": () => decodeSszSnappy(codec, Uint8Array.of(...ssz, 0), any),
};

/** The reasons of response chunks: each has hostile responses of its own in reqresp.test.ts. */
const RESPONSES = ["bad-result-code", "unknown-context-bytes", "too-many-chunks"];

describe("P2P_REASONS", () => {
  it("is the README's table: reason, code, fault and fields, in order", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const table = readme.slice(readme.indexOf("| reason "), readme.indexOf("core's reason"));
    const rows = table
      .split("\n")
      .filter((line) => /^\| `[a-z-]+` /.test(line))
      .map((line) =>
        line
          .split("|")
          .slice(1, 5)
          .map((cell) => cell.trim()),
      );
    const expected = Object.entries(P2P_REASONS).map(([reason, spec]) => [
      `\`${reason}\``,
      `\`${spec.code}\``,
      spec.fault,
      [
        ...spec.fields.map((field) => `\`${field}\``),
        ...("optional" in spec ? spec.optional : []).map((field) => `\`${field}?\``),
      ].join(", "),
    ]);
    expect(rows).toEqual(expected);
  });

  it("adds to core's reasons, none of them core's own", () => {
    for (const reason of Object.keys(P2P_REASONS)) expect(reason in REASONS).toBe(false);
    const error = new SnappyError("too-many-chunks", "too many", { at: 7, limit: 2 });
    expect([error.code, error.fault, error.at, error.limit]).toEqual([
      "LENGTH_LIMIT",
      "peer",
      7,
      2,
    ]);
  });

  it("are each produced by a hostile input, with their code", async () => {
    expect([...Object.keys(HOSTILE), ...RESPONSES].sort()).toEqual(
      [...Object.keys(P2P_REASONS), "length-under-minimum"].sort(),
    );
    for (const [reason, hostile] of Object.entries(HOSTILE)) {
      let error: unknown;
      try {
        await hostile();
      } catch (e) {
        error = e;
      }
      expect(error, reason).toMatchObject({ name: "SnappyError", reason, fault: "peer" });
    }
  });
});

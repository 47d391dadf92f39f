// Every adapter reads every other adapter's output at every size the code treats specially:
// the size constants of every codec, of framing and of core (read from their source) and the
// powers of two, ±1, as random, zero and text bytes. Raw, framed and ssz_snappy. Each
// adapter's own conformance run checks its sync, async and *Into operations at these sizes
// against the independent oracle; this is the one place all backends meet.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import {
  boundarySizes,
  conformanceChecks,
  mixed,
  randomBytes,
  readSizeConstants,
  sameBytes,
} from "@snappykit/conformance";
import type { SnappyCodec } from "@snappykit/core";
import { decodeFramed, encodeFramed } from "@snappykit/framing";
import { decodeSszSnappy, encodeSszSnappy, MAX_PAYLOAD_SIZE } from "@snappykit/p2p";
import { discoverAdapters, loadAdapters } from "@snappykit/workspace";
import { describe, expect, it } from "vitest";

const adapters = discoverAdapters();
const NODE_FFI = Number(process.versions.node.split(".")[0]) >= 26;
const { loaded, failed } = await loadAdapters(adapters);
const codecs: SnappyCodec[] = loaded.map((a) => a.codec);

const require = createRequire(import.meta.url);
const dirOf = (name: string) => dirname(require.resolve(`${name}/package.json`));
const constants = (
  await Promise.all(
    [...adapters.map((a) => a.dir), dirOf("@snappykit/framing"), dirOf("@snappykit/core")].map(
      readSizeConstants,
    ),
  )
).flat();
// Sizes up to 300 KiB: past every codec's and framing's internal size (256 KiB windows and
// staging, 76,494-byte chunks); larger ones are each adapter's own conformance run's.
const plan = boundarySizes(constants, { maxPowerOfTwo: 2 ** 18, maxSize: 300 * 1024 });

const kinds = (size: number): [string, Uint8Array][] => [
  ["random", randomBytes(size, size + 1)],
  ["zeros", new Uint8Array(size)],
  ["text", mixed(size, size + 2)],
];

/** The distinct outputs of `encode` over every codec: several write libsnappy's bytes. */
function distinct(encode: (c: SnappyCodec) => Uint8Array): { by: string; bytes: Uint8Array }[] {
  const out: { by: string; bytes: Uint8Array }[] = [];
  for (const c of codecs) {
    const bytes = encode(c);
    const same = out.find(
      (o) => o.bytes.length === bytes.length && o.bytes.every((b, i) => b === bytes[i]),
    );
    if (same) same.by += `, ${c.name}`;
    else out.push({ by: c.name, bytes });
  }
  return out;
}

// Each adapter's own conformance run reads its own and its dependencies' constants; here every
// adapter also meets the sizes of ts, auto and framing (which an adapter need not depend on).
// (The powers of two are in every adapter's own run already.)
const shared = boundarySizes(
  constants.filter((c) => /^(?:ts|auto|framing|core)\//.test(c.name)),
  { maxPowerOfTwo: 1 },
);
const boundaryChecks = conformanceChecks({ boundaries: shared }).filter(
  (check) => check.group === "boundary sizes",
);

describe("every adapter at the size constants of ts, auto and framing", () => {
  for (const codec of codecs) {
    it(codec.name, async () => {
      for (const check of boundaryChecks) await check.run(codec);
    });
  }
});

describe("every adapter reads every adapter's streams at the boundary sizes", () => {
  it("loads every adapter", () => {
    // ffi needs the runtime's FFI (node:ffi from Node 26): elsewhere its declared refusal.
    const declared = NODE_FFI ? [] : ["ffi"];
    expect(failed.map((f) => f.id)).toEqual(declared);
    expect(codecs.length).toBe(adapters.length - declared.length);
  });

  for (const { size, because } of plan.sizes) {
    it(`${size} B (${because.join("; ")})`, () => {
      for (const [kind, data] of kinds(size)) {
        const bounds = { minSize: size, maxSize: size };
        for (const [form, encode, decode] of [
          [
            "raw",
            (c: SnappyCodec) => c.compress(data),
            (c: SnappyCodec, s: Uint8Array) => c.uncompress(s),
          ],
          [
            "framed",
            (c: SnappyCodec) => encodeFramed(c, data),
            (c: SnappyCodec, s: Uint8Array) => decodeFramed(c, s),
          ],
          [
            "ssz_snappy",
            (c: SnappyCodec) => encodeSszSnappy(c, data),
            (c: SnappyCodec, s: Uint8Array) => decodeSszSnappy(c, s, bounds),
          ],
        ] as const) {
          if (form === "ssz_snappy" && size > MAX_PAYLOAD_SIZE) continue;
          for (const stream of distinct(encode)) {
            for (const reader of codecs) {
              sameBytes(
                decode(reader, stream.bytes),
                data,
                `${reader.name} reading ${form} ${kind} from ${stream.by}`,
              );
            }
          }
        }
      }
    });
  }
});

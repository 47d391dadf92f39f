// Local timing: CRC-32C choice and framing overhead vs raw compress. Plain node over dist:
//   cd packages/framing && pnpm run build && node scripts/measure.mjs
// Times in batches with an event-loop turn between them (snappy@7 frees buffers from
// finalizers; see docs/backends.md, "Harness pitfalls"). Median of batches, µs per op.
import { createCodec as createNapi } from "@snappykit/napi";
import { createCodec as createSnappyWasm } from "@snappykit/snappy-wasm";
import {
  crc32cNative,
  crc32cTs,
  decodeFramed,
  decodeSszSnappySequence,
  encodeFramed,
  encodeSszSnappySequence,
  MAX_PAYLOAD_SIZE,
} from "../dist/index.js";

const turn = () => new Promise((resolve) => setImmediate(resolve));

async function time(fn, bytesPerOp) {
  const perBatch = Math.max(1, Math.floor((4 << 20) / Math.max(bytesPerOp, 1)));
  for (let i = 0; i < perBatch; i++) fn(); // warm-up
  const samples = [];
  for (let b = 0; b < 15; b++) {
    await turn();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < perBatch; i++) fn();
    samples.push(Number(process.hrtime.bigint() - t0) / perBatch / 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[7];
}

function structured(n, seed = 7) {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const lane = (i >>> 5) % 8;
    out[i] = lane < 3 ? (i & 31) * lane : lane < 6 ? 0 : x & 0xff;
  }
  return out;
}

const fmt = (us) => (us < 10 ? us.toFixed(2) : us.toFixed(1)).padStart(8);
console.log(`node ${process.version}, ${process.arch}`);

console.log("\nCRC-32C (µs/op, GB/s)");
for (const n of [200, 4096, 65536]) {
  const data = structured(n, 3);
  const ts = await time(() => crc32cTs(data), n);
  const nat = await time(() => crc32cNative(data), n);
  const gbs = (us) => (n / us / 1000).toFixed(2);
  console.log(
    `  ${String(n).padStart(6)} B  typescript ${fmt(ts)} (${gbs(ts)} GB/s)   @node-rs/crc32 ${fmt(nat)} (${gbs(nat)} GB/s)`,
  );
}

const block = structured(140_000);
const range = Array.from({ length: 64 }, (_, i) =>
  structured(20_000 + ((i * 7919) % 60_000), i + 1),
);
const bounds = { minSize: 0, maxSize: MAX_PAYLOAD_SIZE };
for (const codec of [await createNapi(), await createSnappyWasm()]) {
  console.log(`\n${codec.name} (${codec.library}), 140,000-byte structured block (µs/op)`);
  const raw = codec.compress(block);
  const framed = encodeFramed(codec, block);
  const rows = [
    ["raw compress", () => codec.compress(block)],
    ["encodeFramed, native CRC", () => encodeFramed(codec, block, { crc32c: crc32cNative })],
    ["encodeFramed, TS CRC", () => encodeFramed(codec, block, { crc32c: crc32cTs })],
    ["raw uncompress", () => codec.uncompress(raw)],
    ["decodeFramed, native CRC", () => decodeFramed(codec, framed, { crc32c: crc32cNative })],
    ["decodeFramed, TS CRC", () => decodeFramed(codec, framed, { crc32c: crc32cTs })],
    ["decodeFramed, no CRC check", () => decodeFramed(codec, framed, { verifyChecksums: false })],
  ];
  for (const [label, fn] of rows)
    console.log(`  ${label.padEnd(28)} ${fmt(await time(fn, block.length))}`);
  const response = encodeSszSnappySequence(codec, range);
  const total = range.reduce((s, b) => s + b.length, 0);
  console.log(
    `  by-range, 64 payloads (${total} B): encode ${fmt(await time(() => encodeSszSnappySequence(codec, range), total))}  decode ${fmt(await time(() => decodeSszSnappySequence(codec, response, bounds), total))}`,
  );
}

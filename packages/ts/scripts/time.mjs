// Local timing: @snappykit/ts (dist) against snappy@7 (napi), snappyjs, @stablelib/snappy and
// hysnappy on every fixture, p50 µs per op (one op = every item of the payload). Not the
// project bench (apps/bench); a quick A/B loop for optimising this codec.
//
// Usage: node scripts/time.mjs [payload-substring ...] [--codecs=ts,napi] [--ms=300] [--cpu] [--stat=min]
// --cpu times each batch by process CPU time instead of wall time (steadier on a busy machine;
// batches are at least ~4 MiB or 2000 ops, so the µs resolution does not matter).
// Batches are capped at ~4 MiB of output and separated by one event-loop turn
// (snappy@7 frees its buffers from finalizers; see BACKENDS.md).
import { createRequire } from "node:module";
import { loadPayloads } from "@snappykit/fixtures";
import { compress, uncompress } from "../dist/index.js";

const require = createRequire(import.meta.url);
const napi = require("snappy");
const snappyjs = require("../../snappyjs/node_modules/snappyjs");
const stablelib = require("../../stablelib/node_modules/@stablelib/snappy");
const hysnappy = await import("../../hysnappy/node_modules/hysnappy/js/index.js");

const args = process.argv.slice(2);
const opt = (k, d) => args.find((a) => a.startsWith(`--${k}=`))?.split("=")[1] ?? d;
const filters = args.filter((a) => !a.startsWith("--"));
const budgetMs = Number(opt("ms", 300));
const cpu = args.includes("--cpu");
// p50 by default; --stat=min for A/B work on a busy machine (least disturbed batch).
const stat = opt("stat", "p50");

const hyC = hysnappy.snappyCompressor();
const hyU = hysnappy.snappyUncompressor();
const codecs = {
  ts: { compress, uncompress: (b) => uncompress(b) },
  napi: {
    compress: (b) => napi.compressSync(b),
    uncompress: (b) => napi.uncompressSync(b, { asBuffer: true }),
  },
  snappyjs: { compress: (b) => snappyjs.compress(b), uncompress: (b) => snappyjs.uncompress(b) },
  stablelib: { compress: (b) => stablelib.compress(b), uncompress: (b) => stablelib.decompress(b) },
  // hysnappy needs the length from the caller; the fixture knows it (no validation here).
  hysnappy: { compress: (b) => hyC(b), uncompress: (b, n) => hyU(b, n) },
};
const selected = opt("codecs", Object.keys(codecs).join(",")).split(",");

const tick = () => new Promise((r) => setImmediate(r));

async function time(fn, outBytes) {
  const perBatch = Math.max(1, Math.min(2000, Math.floor((4 << 20) / Math.max(1, outBytes))));
  for (let i = 0; i < perBatch * 3; i++) fn(); // warm up
  await tick();
  const samples = [];
  const start = performance.now();
  while (performance.now() - start < budgetMs || samples.length < 5) {
    if (cpu) {
      // Process CPU time, not wall time: other jobs on a shared machine steal the core.
      const c0 = process.cpuUsage();
      for (let i = 0; i < perBatch; i++) fn();
      const c = process.cpuUsage(c0);
      samples.push((c.user + c.system) / perBatch);
    } else {
      const t0 = performance.now();
      for (let i = 0; i < perBatch; i++) fn();
      samples.push(((performance.now() - t0) * 1000) / perBatch);
    }
    await tick();
  }
  samples.sort((a, b) => a - b);
  return stat === "min" ? samples[0] : samples[samples.length >> 1];
}

const payloads = loadPayloads().filter(
  (p) => filters.length === 0 || filters.some((f) => p.name.includes(f)),
);
const fmt = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
console.log(
  `node ${process.version}; ${stat} µs/op (${cpu ? "CPU" : "wall"} time), compress / uncompress; ${budgetMs} ms per cell`,
);
console.log(["payload".padEnd(24), ...selected.map((c) => c.padStart(16))].join(""));
for (const p of payloads) {
  const items = p.items;
  const reference = items.map((b) => napi.compressSync(b));
  const refU8 = reference.map((b) => new Uint8Array(b));
  const cells = [];
  for (const name of selected) {
    const c = codecs[name];
    const ct = await time(() => {
      for (const b of items) c.compress(b);
    }, p.bytes);
    const ut = await time(() => {
      for (let i = 0; i < refU8.length; i++)
        c.uncompress(name === "napi" ? reference[i] : refU8[i], items[i].length);
    }, p.bytes);
    cells.push(`${fmt(ct)} / ${fmt(ut)}`.padStart(16));
  }
  console.log([`${p.name} (${p.bytes})`.padEnd(24).slice(0, 24), ...cells].join(""));
}
